/** The shape every domain event has: a past-tense type and plain data. */
export interface DomainEvent<Type extends string = string, Data = Record<string, unknown>> {
  type: Type;
  data: Data;
}
