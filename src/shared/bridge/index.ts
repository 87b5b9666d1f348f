export * from './result'
export * from './contract'
