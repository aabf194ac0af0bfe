export * from './principal.ts';
export * from './acl.ts';
export * from './document.ts';
export * from './search.ts';
export * from './answer.ts';
export * from './principal-name.ts';
export * from './identifier.ts';
