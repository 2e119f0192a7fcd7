// Graphiti's routes (graph_service/routers), one handler each, answering what upstream answers.
import { nameEmbedding } from './extraction.js';
import type { GraphStore } from './graph-store.js';
import { isValidGroupId } from './group-id.js';
import {
  detail,
  internalServerError,
  json,
  jsonDecodeFailed,
  result,
  validationFailed,
  type RouteAnswer,
} from './http-answers.js';
import type { MessageJob } from './episode-processor.js';
import type { MessageWorker } from './message-worker.js';
import {
  addEntityNodeModel,
  addMessagesModel,
  getMemoryModel,
  searchModel,
  type MessageInput,
} from './request-models.js';
import { searchFacts } from './search.js';
import { toPythonIsoFormat } from './time-format.js';
import type { EntityNodeRecord, RouteName } from './types.js';
import { validateBody, validateIntegerQuery, type Validator } from './validation.js';

export interface RouteContext {
  readonly store: GraphStore;
  readonly worker: MessageWorker<MessageJob>;
  now(): number;
}

export interface RouteRequest {
  /** Decoded path parameters, in pattern order. */
  readonly parameters: readonly string[];
  readonly query: URLSearchParams;
  readonly bodyText: string;
}

interface RouteDefinition {
  readonly name: RouteName;
  readonly method: string;
  readonly pattern: RegExp;
  handle(context: RouteContext, request: RouteRequest): RouteAnswer;
}

/** Parses and validates a JSON body: the value, or the 422 FastAPI would send. */
function readBody<T>(validator: Validator<T>, bodyText: string): { value: T } | { answer: RouteAnswer } {
  let body: unknown;
  if (bodyText.trim() !== '') {
    try {
      body = JSON.parse(bodyText);
    } catch (error) {
      return { answer: jsonDecodeFailed(bodyText, error) };
    }
  }
  const validated = validateBody(validator, body);
  return validated.ok ? { value: validated.value } : { answer: validationFailed(validated.issues) };
}

function parameter(request: RouteRequest): string {
  return request.parameters[0] ?? '';
}

/** Upstream's `compose_query_from_messages` (note: role_type first, unlike the episode body). */
function composeQuery(messages: readonly MessageInput[]): string {
  return messages.map((message) => `${message.role_type}(${message.role ?? ''}): ${message.content}\n`).join('');
}

const ROUTES: readonly RouteDefinition[] = [
  {
    name: 'healthcheck',
    method: 'GET',
    pattern: /^\/healthcheck$/,
    handle: () => json(200, { status: 'healthy' }),
  },
  {
    name: 'messages',
    method: 'POST',
    pattern: /^\/messages$/,
    handle: (context, request) => {
      const body = readBody(addMessagesModel, request.bodyText);
      if ('answer' in body) return body.answer;
      // No group-id check here: upstream accepts the request and the worker dies on it later.
      for (const message of body.value.messages) context.worker.enqueue({ groupId: body.value.group_id, message });
      return result('Messages added to processing queue', 202);
    },
  },
  {
    name: 'entity-node',
    method: 'POST',
    pattern: /^\/entity-node$/,
    handle: (context, request) => {
      const body = readBody(addEntityNodeModel, request.bodyText);
      if ('answer' in body) return body.answer;
      const node: EntityNodeRecord = {
        uuid: body.value.uuid,
        name: body.value.name,
        group_id: body.value.group_id,
        labels: ['Entity'],
        created_at: toPythonIsoFormat(context.now()),
        name_embedding: nameEmbedding(body.value.name),
        summary: body.value.summary,
        attributes: {},
      };
      context.store.putNode(node);
      return json(201, node);
    },
  },
  {
    name: 'search',
    method: 'POST',
    pattern: /^\/search$/,
    handle: (context, request) => {
      const body = readBody(searchModel, request.bodyText);
      if ('answer' in body) return body.answer;
      const groupIds = body.value.group_ids;
      if (groupIds !== null && !groupIds.every(isValidGroupId)) return internalServerError();
      const facts = context.store.facts(groupIds ?? undefined);
      return json(200, { facts: searchFacts(facts, body.value.query, body.value.max_facts) });
    },
  },
  {
    name: 'get-memory',
    method: 'POST',
    pattern: /^\/get-memory$/,
    handle: (context, request) => {
      const body = readBody(getMemoryModel, request.bodyText);
      if ('answer' in body) return body.answer;
      if (!isValidGroupId(body.value.group_id)) return internalServerError();
      const facts = context.store.facts([body.value.group_id]);
      return json(200, { facts: searchFacts(facts, composeQuery(body.value.messages), body.value.max_facts) });
    },
  },
  {
    name: 'episodes',
    method: 'GET',
    pattern: /^\/episodes\/([^/]+)$/,
    handle: (context, request) => {
      const lastN = validateIntegerQuery('last_n', request.query.getAll('last_n').at(-1));
      if (!lastN.ok) return validationFailed(lastN.issues);
      // A negative LIMIT is a database error upstream.
      if (lastN.value < 0) return internalServerError();
      const groupId = parameter(request);
      if (!isValidGroupId(groupId)) return json(200, []);
      return json(200, context.store.episodes({ groupId, validUntilMs: context.now(), lastN: lastN.value }));
    },
  },
  {
    name: 'get-entity-edge',
    method: 'GET',
    pattern: /^\/entity-edge\/([^/]+)$/,
    handle: (context, request) => {
      const uuid = parameter(request);
      const fact = context.store.getFact(uuid);
      return fact === undefined ? detail(404, `edge ${uuid} not found`) : json(200, fact);
    },
  },
  {
    name: 'delete-entity-edge',
    method: 'DELETE',
    pattern: /^\/entity-edge\/([^/]+)$/,
    handle: (context, request) => {
      const uuid = parameter(request);
      return context.store.deleteFact(uuid) ? result('Entity Edge deleted') : detail(404, `edge ${uuid} not found`);
    },
  },
  {
    name: 'delete-group',
    method: 'DELETE',
    pattern: /^\/group\/([^/]+)$/,
    handle: (context, request) => {
      context.store.deleteGroup(parameter(request));
      return result('Group deleted');
    },
  },
  {
    name: 'delete-episode',
    method: 'DELETE',
    pattern: /^\/episode\/([^/]+)$/,
    handle: (context, request) => {
      const uuid = parameter(request);
      // Only the episode node goes; facts extracted from it stay, as upstream.
      return context.store.deleteEpisode(uuid) ? result('Episode deleted') : detail(404, `node ${uuid} not found`);
    },
  },
  {
    name: 'clear',
    method: 'POST',
    pattern: /^\/clear$/,
    handle: (context) => {
      context.store.clear();
      return result('Graph cleared');
    },
  },
];

export type RouteMatch =
  | { readonly kind: 'found'; readonly route: RouteDefinition; readonly parameters: string[] }
  | { readonly kind: 'redirect'; readonly location: string; readonly route: RouteName }
  | { readonly kind: 'method-not-allowed'; readonly route: RouteName }
  | { readonly kind: 'not-found' };

export function matchRoute(method: string, path: string): RouteMatch {
  let pathMatched: RouteName | null = null;
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (match === null) continue;
    if (route.method !== method) {
      pathMatched ??= route.name;
      continue;
    }
    try {
      return { kind: 'found', route, parameters: match.slice(1).map((value) => decodeURIComponent(value)) };
    } catch {
      return { kind: 'not-found' };
    }
  }
  if (pathMatched !== null) return { kind: 'method-not-allowed', route: pathMatched };
  // Starlette redirects `/path/` to `/path` when only the latter exists.
  if (path.length > 1 && path.endsWith('/')) {
    const trimmed = matchRoute(method, path.slice(0, -1));
    if (trimmed.kind === 'found') return { kind: 'redirect', location: path.slice(0, -1), route: trimmed.route.name };
  }
  return { kind: 'not-found' };
}

export function routeNameOf(match: RouteMatch): RouteName | null {
  if (match.kind === 'found') return match.route.name;
  if (match.kind === 'not-found') return null;
  return match.route;
}
