export * from './amount';
export * from './currency';
export * from './iou-value';
