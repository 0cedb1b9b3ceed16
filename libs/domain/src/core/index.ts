export * from './decision';
export * from './decider';
export * from './domain-event';
export * from './refusal-code';
