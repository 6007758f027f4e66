import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs } from '../test/test-app.js';

/**
 * Every operation of the app's own OpenAPI document, sent malformed bodies, query strings, path
 * parameters and multipart uploads, as the administrator and as nobody: each must get an answer,
 * never a 5xx, and a 4xx must be the one error shape. Besides the random choices, every id a
 * request carries (path, query, body) is sent past the columns' range (2³¹) and past 2⁵³, and
 * bodies nested thousands deep. The choices are seeded (`FUZZ_SEED`, named in a failure), and
 * rounds with the next seeds follow until at least FUZZ_MIN_REQUESTS requests went.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
};
type Operation = {
  parameters?: { name: string; in: 'query' | 'path' | 'header'; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
type Fuzzed = { label: string; request: InjectOptions; urlSuffix?: string };

/** mulberry32: small, fast and the same on every machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 0x9c1a55);
const FUZZ_MIN_REQUESTS = 10_000;
let random = seededRandom(FUZZ_SEED);
const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const pickSome = <T,>(items: readonly T[], count: number): T[] =>
  [...items].map((item) => ({ item, key: random() })).sort((a, b) => a.key - b.key).slice(0, count).map(({ item }) => item);

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  // Each level holds the one below once: JSON of it grows with the depth, not twice per level.
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { a: value, b: 1 } : [value, { z: null }];
  return value;
}

// Ids start at 1 and the seed makes only a few: none of these names an existing row.
const JUNK: readonly unknown[] = [
  null, true, false, -1, 0, 1.5, 2 ** 31, 2 ** 53 + 2, -1e308, 99_999_999, '', ' ', 'x'.repeat(5000), '\u0000nul', '💥🚀', "' or 1=1 --",
  '<script>alert(1)</script>', '2024-13-45 99:99:99', [], [null], ['x', 7], {}, { $ne: 1 }, nested(6),
];
const JUNK_TEXT = ['', 'abc', '-1', '0', '1.5', '2147483648', '9007199254740993', 'NaN', '1e309', '9'.repeat(400), 'x'.repeat(3000), '%00', "'--", 'true', '[]', '{}', '2024-13-45'];
const JUNK_PATH = ['abc', '-1', '0', '1.5', '2147483648', '9007199254740993', '99999999999999999999', '%00', '..%2F..%2Fetc%2Fpasswd', 'x'.repeat(1000), '%E4%B8', '💥'];

/** Past the 32-bit id columns, and past what a double holds exactly. */
const ID_PAST_RANGE = [2 ** 31, 2 ** 53 + 2] as const;
const isIdName = (name: string): boolean => /^(id|ids|pid)$|Ids?$/.test(name);

function resolve(schema: Schema | undefined, doc: Document): Schema {
  if (schema?.$ref === undefined) return schema ?? {};
  return resolve(doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')], doc);
}

/** A plausible value of the schema, to mutate one field at a time. */
function example(schema: Schema | undefined, doc: Document, depth = 0): unknown {
  const resolved = resolve(schema, doc);
  if (depth > 4) return null;
  if (resolved.enum !== undefined) return resolved.enum[0];
  if (resolved.anyOf !== undefined) return example(resolved.anyOf[0], doc, depth + 1);
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(resolved.properties ?? {}).map(([name, property]) => [name, example(property, doc, depth + 1)]));
    case 'array':
      return [example(resolved.items, doc, depth + 1)];
    case 'integer':
    case 'number':
      return 99_999_999;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'fuzz';
  }
}

function jsonBodies(schema: Schema | undefined, doc: Document): Fuzzed[] {
  const json = (label: string, payload: string): Fuzzed => ({ label, request: { headers: { 'content-type': 'application/json' }, payload } });
  const base = example(schema, doc);
  const fuzzed: Fuzzed[] = [
    json('invalid JSON', '{"a": [1, 2'),
    json('empty JSON body', ''),
    json('JSON null', 'null'),
    json('JSON string', '"text"'),
    json('missing every field', '{}'),
    json('an array of junk', JSON.stringify([null, 'x', {}, -1])),
    json('deeply nested junk', JSON.stringify(nested(60))),
    json('arrays nested 5,000 deep', `${'['.repeat(5000)}${']'.repeat(5000)}`),
    json('objects nested 100,000 deep', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`),
    json('a cut-off body', JSON.stringify(base).slice(0, Math.max(1, Math.floor(JSON.stringify(base).length / 2)))),
    json('prototype keys', '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}'),
    json('over the body limit', OVERSIZE_JSON),
    { label: 'a JSON body sent as text/plain', request: { headers: { 'content-type': 'text/plain' }, payload: JSON.stringify(base) } },
    { label: 'a made-up content type', request: { headers: { 'content-type': 'application/x-fuzz' }, payload: 'a=b' } },
  ];
  if (base !== null && typeof base === 'object' && !Array.isArray(base)) {
    const fields = Object.keys(base);
    for (const past of ID_PAST_RANGE) {
      const ids = Object.fromEntries(fields.filter(isIdName).map((field) => [field, Array.isArray((base as Record<string, unknown>)[field]) ? [past] : past]));
      if (Object.keys(ids).length > 0) fuzzed.push(json(`every id ${past}`, JSON.stringify({ ...base, ...ids })));
    }
    for (const field of pickSome(fields, 3)) {
      for (const junk of pickSome(JUNK, 2)) {
        fuzzed.push(json(`${field} = ${JSON.stringify(junk)?.slice(0, 40)}`, JSON.stringify({ ...base, [field]: junk })));
      }
      fuzzed.push(json(`${field} missing`, JSON.stringify({ ...base, [field]: undefined })));
    }
    if (fields.length > 0) {
      fuzzed.push(json('every string huge', JSON.stringify(Object.fromEntries(fields.map((field) => [field, 'h'.repeat(100_000)])))));
    }
  } else if (Array.isArray(base)) {
    for (const past of ID_PAST_RANGE) fuzzed.push(json(`[${past}]`, JSON.stringify([past])));
    for (const junk of pickSome(JUNK, 4)) fuzzed.push(json(`[${JSON.stringify(junk)?.slice(0, 40)}]`, JSON.stringify([junk])));
    fuzzed.push(json('ten thousand items', JSON.stringify(Array.from({ length: 10_000 }, (_, index) => index + 1_000_000))));
  }
  return fuzzed;
}

const OVERSIZE_JSON = `{"x": "${'y'.repeat(1024 * 1024 + 16)}"}`;
const BOUNDARY = 'fuzzBoundary7MA4YWxkTrZu0gW';
function multipartBodies(): Fuzzed[] {
  const part = (headers: string, content: string) => `--${BOUNDARY}\r\n${headers}\r\n\r\n${content}\r\n`;
  const file = part('Content-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png', '\x89PNG\r\n\x1a\nshort');
  const withBoundary = (label: string, payload: string): Fuzzed => ({
    label,
    request: { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, payload },
  });
  return [
    { label: 'multipart without a boundary', request: { headers: { 'content-type': 'multipart/form-data' }, payload: `${file}--${BOUNDARY}--\r\n` } },
    { label: 'multipart with a boundary over 70 characters', request: { headers: { 'content-type': `multipart/form-data; boundary=${'b'.repeat(200)}` }, payload: 'x' } },
    withBoundary('multipart cut off mid-part', file.slice(0, file.length - 12)),
    withBoundary('multipart with no parts', `--${BOUNDARY}--\r\n`),
    withBoundary('multipart with only the wrong field', `${part('Content-Disposition: form-data; name="notfile"; filename="a.png"', 'abc')}--${BOUNDARY}--\r\n`),
    withBoundary('multipart with a text field where the file goes', `${part('Content-Disposition: form-data; name="file"', 'not a file')}--${BOUNDARY}--\r\n`),
    withBoundary('multipart part without headers', `${part('', 'junk')}--${BOUNDARY}--\r\n`),
    withBoundary('multipart garbage', '\u0000\u0001garbage'.repeat(100)),
  ];
}

function queryStrings(operation: Operation): Fuzzed[] {
  const names = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
  if (names.length === 0) return [];
  const fuzzed: Fuzzed[] = names.flatMap((name) =>
    pickSome(JUNK_TEXT, 1).map((junk) => ({ label: `?${name}=${junk.slice(0, 20)}`, request: { query: { [name]: junk } } })),
  );
  const everyOne = Object.fromEntries(names.map((name) => [name, pick(JUNK_TEXT)]));
  fuzzed.push({ label: 'every query parameter junk', request: { query: everyOne } });
  const first = names[0] ?? 'page';
  fuzzed.push({ label: `?${first} given twice`, request: { query: { [first]: ['1', 'x'] } } });
  fuzzed.push({ label: 'bracketed and malformed query', request: {}, urlSuffix: `?${first}[]=1&${first}[x]=2&%ZZ=1&=&&` });
  const idNames = names.filter(isIdName);
  for (const past of ID_PAST_RANGE) {
    if (idNames.length > 0) fuzzed.push({ label: `every id query ${past}`, request: { query: Object.fromEntries(idNames.map((name) => [name, String(past)])) } });
  }
  return fuzzed;
}

function pathVariants(url: string, operation: Operation): { label: string; url: string }[] {
  const names = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name);
  const fill = (value: (name: string) => string) => url.replace(/\{([^}]+)\}/g, (_, name: string) => value(name));
  if (names.length === 0) return [{ label: '', url }];
  return [
    { label: 'path 99999999', url: fill(() => '99999999') },
    ...ID_PAST_RANGE.map((past) => ({ label: `path ${past}`, url: fill(() => String(past)) })),
    ...pickSome(JUNK_PATH, 4).map((junk) => ({ label: `path ${junk.slice(0, 20)}`, url: fill(() => junk) })),
  ];
}

/** Every request gets an answer: a hang shows as this failure, naming the request, not as a timeout of the whole file. */
async function answerOf(app: FastifyInstance, request: InjectOptions, label: string): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer to ${label}`)), 20_000);
  });
  try {
    return await Promise.race([app.inject(request), hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe('OpenAPI-driven fuzzing', () => {
  let app: FastifyInstance;
  let doc: Document;
  let admin: string;
  let requestCount = 0;
  // Each request from its own address, so login and captcha limits per address do not turn the run into 429s.
  const nextAddress = () => {
    requestCount += 1;
    return `10.${(requestCount >> 16) & 255}.${(requestCount >> 8) & 255}.${requestCount & 255}`;
  };

  beforeAll(async () => {
    app = await buildTestApp();
    doc = (await app.inject({ method: 'GET', url: '/v3/api-docs' })).json();
    admin = await loginAs(app, 'admin');
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Fuzzes one operation, answering what broke the rules. */
  async function fuzzOperation(method: string, url: string, operation: Operation, token: string | undefined): Promise<string[]> {
    const problems: string[] = [];
    const sends: (Fuzzed & { url: string })[] = [];
    const paths = pathVariants(url, operation);
    for (const path of paths) sends.push({ label: path.label, url: path.url, request: {} });
    const concrete = paths[0]?.url ?? url;
    for (const query of queryStrings(operation)) sends.push({ ...query, url: concrete });
    if (!['GET', 'HEAD'].includes(method)) {
      const content = operation.requestBody?.content ?? {};
      const json = content['application/json'];
      const multipart = content['multipart/form-data'] !== undefined;
      // A write that declares no JSON body (an upload the document does not describe) gets both kinds.
      if (json !== undefined || !multipart) for (const body of jsonBodies(json?.schema, doc)) sends.push({ ...body, url: concrete });
      if (multipart || json === undefined) for (const body of multipartBodies()) sends.push({ ...body, url: concrete });
    }
    for (const send of sends) {
      const fullUrl = send.url + (send.urlSuffix ?? '');
      const label = `${method} ${fullUrl.slice(0, 120)} (${send.label}, ${token === undefined ? 'nobody' : 'admin'})`;
      const headers = { ...(send.request.headers as Record<string, string> | undefined), ...(token === undefined ? {} : { authorization: token }) };
      const response = await answerOf(app, { ...send.request, method: method as InjectOptions['method'], url: fullUrl, headers, remoteAddress: nextAddress() }, label);
      if (response.statusCode >= 500) {
        problems.push(`${label} → ${response.statusCode} ${response.body.slice(0, 200)}`);
      } else if (response.statusCode >= 400) {
        const body = (() => {
          try {
            return response.json() as { status?: unknown; message?: unknown };
          } catch {
            return undefined;
          }
        })();
        if (body?.status !== response.statusCode || typeof body.message !== 'string' || body.message === '') {
          problems.push(`${label} → ${response.statusCode} without the error shape: ${response.body.slice(0, 200)}`);
        }
      }
    }
    return problems;
  }

  /** The admin's token, logged in again if a fuzzed request ended the session (a logout, a kick-out). */
  async function liveAdmin(): Promise<string> {
    const info = await app.inject({ method: 'GET', url: '/auth/info', headers: { authorization: admin } });
    if (info.statusCode === 401) admin = await loginAs(app, 'admin');
    return admin;
  }

  it('finds no 5xx and no unanswered request in any operation, as the administrator or as nobody', async () => {
    const operations = Object.entries(doc.paths).flatMap(([url, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), url, operation })),
    );
    expect(operations.length).toBeGreaterThan(60);
    const problems: string[] = [];
    for (let round = 0; requestCount < FUZZ_MIN_REQUESTS; round += 1) {
      random = seededRandom(FUZZ_SEED + round);
      for (const { method, url, operation } of operations) {
        problems.push(...(await fuzzOperation(method, url, operation, undefined)));
        problems.push(...(await fuzzOperation(method, url, operation, await liveAdmin())));
      }
      if (problems.length > 0) break;
    }
    expect(problems, `replay with FUZZ_SEED=${FUZZ_SEED} (${requestCount} requests)`).toEqual([]);
    expect(requestCount).toBeGreaterThanOrEqual(FUZZ_MIN_REQUESTS);
  }, 600_000);

  it('answers malformed requests one after another on one kept-alive connection', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, headers: Record<string, string>, body: string | Buffer) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request({ port, host: '127.0.0.1', method, path, agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        });
        // A hang is the failure this test exists for: say which request it was.
        request.setTimeout(20_000, () => request.destroy(new Error(`no answer to ${method} ${path} on a kept-alive connection`)));
        request.on('error', reject);
        request.end(body);
      });
    const token = await liveAdmin();
    const file = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\nshort`;
    try {
      const statuses = [
        await send('POST', '/auth/login', { 'content-type': 'application/json' }, '{"username": '),
        await send('POST', '/api/localStorage/pictures', { authorization: token, 'content-type': 'multipart/form-data' }, `${file}\r\n--${BOUNDARY}--\r\n`),
        await send('POST', '/api/localStorage/pictures', { authorization: token, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, file),
        await send('PUT', '/api/users', { authorization: token, 'content-type': 'application/json' }, JSON.stringify(nested(60))),
        await send('GET', '/api/health', {}, ''),
      ];
      // The server may close a connection after refusing a request, but never leave it hanging.
      // Finding 4's refused uploads with a large body (which helper "files" fixes) are not sent here.
      expect(statuses).toEqual([400, 400, 400, 400, 200]);
    } finally {
      agent.destroy();
    }
  });
});
