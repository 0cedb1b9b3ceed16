export * from './name-rule';
export * from './host-name';
export * from './juju-names';
export * from './maas-tag-name';
export * from './agent-name';
