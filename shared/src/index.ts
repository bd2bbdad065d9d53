export * from './chinese'
export * from './format'
