import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { buildTestApp, openTestDatabase, testConfig } from '../test/test-app.js';

type Operation = {
  tags?: string[];
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
};
type Document = {
  openapi: string;
  info: { title: string; version: string };
  components: { securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
};

const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('API docs', () => {
  let app: FastifyInstance;
  let doc: Document;
  beforeAll(async () => {
    app = await buildTestApp();
    const response = await app.inject({ method: 'GET', url: '/v3/api-docs' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(async () => {
    await app.close();
  });

  it('describes login from the zod schema that validates it', () => {
    const login = doc.paths['/auth/login']?.post;
    const body = login?.requestBody?.content['application/json']?.schema;
    expect(body?.properties).toHaveProperty('username');
    expect(body?.properties).toHaveProperty('password');
    expect(body?.required).toEqual(expect.arrayContaining(['username', 'password']));
    expect(login?.responses['200']?.content?.['application/json']?.schema.properties).toHaveProperty('token');
    expect(login?.security).toBeUndefined();
    expect(login?.tags).toEqual(['auth']);
  });

  it('describes the health check with its answer', () => {
    const health = doc.paths['/api/health']?.get;
    expect(health?.responses['200']?.content?.['application/json']?.schema.properties).toHaveProperty('database');
    expect(health?.tags).toEqual(['health']);
  });

  it('says which routes need a bearer session or permission', () => {
    expect(doc.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } });
    const list = doc.paths['/api/localStorage']?.get;
    expect(list?.security).toEqual([{ bearer: [] }]);
    expect(list?.description).toBe('Requires the permission storage:list.');
    expect(list?.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['page', 'size', 'sort', 'blurry', 'createTime']),
    );
    expect(doc.paths['/api/localStorage/pictures']?.post?.description).toBe('Requires a session.');
  });

  it('describes uploads as multipart with a file field', () => {
    const upload = doc.paths['/api/localStorage']?.post?.requestBody?.content['multipart/form-data']?.schema;
    expect(upload).toEqual({ type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] });
  });

  it('lists every API route', () => {
    const missing = app.apiRoutes
      .filter((route) => route.method !== 'HEAD')
      .filter((route) => doc.paths[openapiPath(route.url)]?.[route.method.toLowerCase()] === undefined);
    expect(missing).toEqual([]);
    expect(doc.info).toEqual({ title: 'Cloud Classroom API', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it('is a valid OpenAPI document whose every reference resolves', async () => {
    // The validator checks against the OpenAPI 3.1 schema it ships with, never the network.
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1] ?? '');
    const schemas = (doc.components as { schemas?: Record<string, unknown> }).schemas ?? {};
    expect(refs.filter((name) => !(name in schemas))).toEqual([]);
  });

  it('names the recursive trees as components', () => {
    const build = doc.paths['/api/menus/build']?.get?.responses['200']?.content?.['application/json']?.schema;
    expect(build).toEqual({ type: 'array', items: { $ref: '#/components/schemas/MenuRoute' } });
    const superior = doc.paths['/api/dept/superior']?.post?.responses['200']?.content?.['application/json']?.schema;
    expect(JSON.stringify(superior)).toContain('#/components/schemas/DeptTree');
    const schemas = (doc.components as { schemas?: Record<string, { properties?: Record<string, unknown> }> }).schemas ?? {};
    expect(schemas.MenuRoute?.properties?.children).toEqual({ type: 'array', items: { $ref: '#/components/schemas/MenuRoute' } });
  });

  it('keeps its own pages out of the document', () => {
    expect(Object.keys(doc.paths).filter((url) => url.startsWith('/swagger-ui') || url === '/v3/api-docs')).toEqual([]);
  });

  it('serves Swagger UI at /swagger-ui.html from local assets, with the same document', async () => {
    const redirect = await app.inject({ method: 'GET', url: '/swagger-ui.html' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/swagger-ui/');
    const page = await app.inject({ method: 'GET', url: '/swagger-ui/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger-ui-bundle.js');
    const bundle = await app.inject({ method: 'GET', url: '/swagger-ui/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/javascript/);
    const json = await app.inject({ method: 'GET', url: '/swagger-ui/json' });
    expect(json.json()).toEqual(doc);
  });
});

describe('API docs with a route zod cannot describe', () => {
  it('still answer, leaving out only what cannot be converted', async () => {
    const config = testConfig();
    const database = await openTestDatabase(config);
    const app = await buildApp({ config, database });
    app.addHook('onClose', database.dispose);
    try {
      // A plain JSON Schema, as a plugin's own route might declare.
      app.get(
        '/plain/:id',
        { schema: { querystring: { type: 'object', properties: { q: { type: 'string' } } } } },
        async () => ({ ok: true }),
      );
      const response = await app.inject({ method: 'GET', url: '/v3/api-docs' });
      expect(response.statusCode).toBe(200);
      const doc = response.json() as Document;
      const plain = doc.paths['/plain/{id}']?.get;
      expect(plain).toBeDefined();
      expect(plain?.parameters?.map((parameter) => parameter.name)).toEqual(['id']);
      expect(doc.paths['/auth/login']?.post?.requestBody).toBeDefined();
    } finally {
      await app.close();
    }
  });
});
