export * from './containment';
export * from './lease';
export * from './tail';
export * from './timeline';
