/**
 * What the appender believes about the stream:
 * - 'no_stream': it must not exist yet;
 * - 'stream_exists': it must exist, any revision;
 * - 'any': no check;
 * - a number: its last event must have exactly this 0-based revision.
 */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

/** The stream's actual state as reported in a conflict: 'no_stream' or its last revision. */
export type ActualRevision = 'no_stream' | number;
