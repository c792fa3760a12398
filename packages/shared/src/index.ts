export * from './constants';
export * from './currency';
