export * from './messages';
export * from './auth';
export * from './company';
export * from './user';
export * from './master-data';
