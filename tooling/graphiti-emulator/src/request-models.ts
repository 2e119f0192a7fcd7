// Graphiti's request models (graph_service/dto), field for field and in declaration order, so
// 422 bodies list problems in the order upstream does.
import { dateTime, integer, list, literal, model, nullable, string, type Validator } from './validation.js';

export type RoleType = 'user' | 'assistant' | 'system';

export interface MessageInput {
  content: string;
  uuid: string | null;
  name: string;
  role_type: RoleType;
  role: string | null;
  /** Epoch milliseconds; defaults to the time the request was validated, as upstream. */
  timestamp: number;
  source_description: string;
}

export const messageModel: Validator<MessageInput> = model<MessageInput>('Message', {
  content: { validate: string },
  uuid: { validate: nullable(string), default: () => null },
  name: { validate: string, default: () => '' },
  role_type: { validate: literal<RoleType>(['user', 'assistant', 'system']) },
  role: { validate: nullable(string) },
  timestamp: { validate: dateTime, default: () => Date.now() },
  source_description: { validate: string, default: () => '' },
});

export interface AddMessagesInput {
  group_id: string;
  messages: MessageInput[];
}

export const addMessagesModel = model<AddMessagesInput>('AddMessagesRequest', {
  group_id: { validate: string },
  messages: { validate: list(messageModel) },
});

export interface SearchInput {
  group_ids: string[] | null;
  query: string;
  max_facts: number;
}

export const searchModel = model<SearchInput>('SearchQuery', {
  group_ids: { validate: nullable(list(string)), default: () => null },
  query: { validate: string },
  max_facts: { validate: integer, default: () => 10 },
});

export interface GetMemoryInput {
  group_id: string;
  max_facts: number;
  center_node_uuid: string | null;
  messages: MessageInput[];
}

export const getMemoryModel = model<GetMemoryInput>('GetMemoryRequest', {
  group_id: { validate: string },
  max_facts: { validate: integer, default: () => 10 },
  center_node_uuid: { validate: nullable(string) },
  messages: { validate: list(messageModel) },
});

export interface AddEntityNodeInput {
  uuid: string;
  group_id: string;
  name: string;
  summary: string;
}

export const addEntityNodeModel = model<AddEntityNodeInput>('AddEntityNodeRequest', {
  uuid: { validate: string },
  group_id: { validate: string },
  name: { validate: string },
  summary: { validate: string, default: () => '' },
});
