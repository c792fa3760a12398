export * from './constants';
export * from './currency';
export * from './schemas/auth';
export * from './schemas/common';
export * from './schemas/deploy';
export * from './schemas/socket';
export * from './schemas/uploads';
export * from './schemas/wallets';
