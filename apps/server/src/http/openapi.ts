import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyBaseLogger, FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { categoryTreeSchema, siteCategorySchema } from '@cloud-classroom/shared/courses';
import { deptTreeSchema } from '@cloud-classroom/shared/depts';
import { menuRouteSchema, menuSchema } from '@cloud-classroom/shared/menus';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';

const UI_PREFIX = '/swagger-ui';
const SCHEMA_PARTS = ['body', 'querystring', 'params', 'headers', 'response'] as const;

type TransformInput = Parameters<SwaggerTransform>[0];

/**
 * Schemas described once under `components/schemas` and referred to by name, through zod's global
 * registry, where the document's transforms look (as for `.meta()`). A recursive schema must be
 * here: zod can describe it only by a reference to itself, and unnamed, that reference points at
 * a component that is never emitted (`schema0`), which makes the document invalid.
 */
for (const [schema, id] of [
  [menuSchema, 'Menu'],
  [menuRouteSchema, 'MenuRoute'],
  [deptTreeSchema, 'DeptTree'],
  [categoryTreeSchema, 'CategoryTree'],
  [siteCategorySchema, 'SiteCategory'],
] as const) {
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
}

/**
 * The route's zod schemas as JSON Schema. A part that cannot be converted (a plugin's own
 * JSON-Schema route, say) is left out of that route's entry rather than failing the whole document.
 */
function convert(document: TransformInput, log: FastifyBaseLogger): ReturnType<SwaggerTransform> {
  try {
    return jsonSchemaTransform(document);
  } catch (error) {
    const schema: FastifySchema = { ...document.schema };
    for (const part of SCHEMA_PARTS) {
      if (schema[part] === undefined) continue;
      try {
        jsonSchemaTransform({ ...document, schema: { [part]: schema[part] } });
      } catch {
        delete schema[part];
      }
    }
    log.warn({ err: error, url: document.url }, 'API docs: part of this route schema cannot be described');
    return jsonSchemaTransform({ ...document, schema });
  }
}

/** Says in the document what `config.access` demands, and groups operations by their first path segment. */
function describeAccess({ schema, url }: ReturnType<SwaggerTransform>, route: RouteOptions): ReturnType<SwaggerTransform> {
  const access = route.config?.access;
  const described: FastifySchema = { ...schema };
  const [first = '', second] = url.split('/').filter(Boolean);
  described.tags ??= [first === 'api' && second !== undefined ? second : first];
  if (access !== undefined && !('public' in access)) {
    described.security = [{ bearer: [] }];
    const demand =
      'admin' in access
        ? 'an administrator'
        : !('permissions' in access)
          ? 'a session'
          : access.permissions.length === 1
            ? `the permission ${access.permissions[0]}`
            : `one of the permissions ${access.permissions.join(', ')}`;
    described.description = [described.description, `Requires ${demand}.`].filter(Boolean).join('\n\n');
  }
  return { schema: described, url };
}

/**
 * OpenAPI generated from the same zod schemas that validate requests, with Swagger UI at
 * /swagger-ui.html (eladmin's address) and the document at /v3/api-docs. Registered before the
 * routes, whose definitions it collects as they are added; its assets come from node_modules.
 */
export async function registerOpenApi(app: FastifyInstance, { version }: { version: string }): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Cloud Classroom API', version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: (document) => describeAccess(convert(document, app.log), document.route),
    transformObject: jsonSchemaTransformObject,
  });
  // No validator badge: it would load an image from validator.swagger.io, which the CSP refuses.
  await app.register(fastifySwaggerUi, { routePrefix: UI_PREFIX, uiConfig: { validatorUrl: null } });
  app.get('/swagger-ui.html', { schema: { hide: true } }, (_request, reply) => reply.redirect(`${UI_PREFIX}/`));
  app.get('/v3/api-docs', { schema: { hide: true } }, () => app.swagger());
}
