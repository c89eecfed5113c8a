// Public surface of the CreateOS client.
export * from './api';
export * from './client';
export * from './config';
export * from './errors';
export * from './execute';
export * from './frames';
export * from './http-client';
export * from './output';
export * from './pacer';
export * from './process-stream';
export * from './schemas';
