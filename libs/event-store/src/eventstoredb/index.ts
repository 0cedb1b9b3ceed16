export { EventStoreDbEventStore, DEFAULT_READ_ALL_COUNT } from './eventstoredb-event-store';
export { InvalidConnectionStringError, redactConnectionString, validateConnectionString } from './connection-string';
export { InvalidEventError, UnreadableEventError } from './event.mapping';
export { InvalidStreamNameError } from './stream-name';
export { UnencodablePositionError } from './position.codec';
