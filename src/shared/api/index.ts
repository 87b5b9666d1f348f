export * from './errors'
export * from './resources'
export * from './operations'
export * from './work-failure'
