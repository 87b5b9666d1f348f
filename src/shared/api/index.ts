export * from './errors'
export * from './resources'
export * from './operations'
