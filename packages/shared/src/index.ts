export * from './constants';
export * from './currency';
export * from './schemas/auth';
export * from './schemas/socket';
export * from './schemas/wallets';
