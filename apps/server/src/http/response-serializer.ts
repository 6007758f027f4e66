import { createRequire } from 'node:module';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type fastJsonStringifyModule from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';

type Serialize = (data: unknown) => string;

// fast-json-stringify brings ajv and its formats, a few hundred files; it is loaded when the
// first answer is written rather than at start. It is CommonJS, so a synchronous require will do.
let fastJsonStringify: typeof fastJsonStringifyModule | undefined;
const loadFastJsonStringify = (): typeof fastJsonStringifyModule =>
  (fastJsonStringify ??= createRequire(import.meta.url)('fast-json-stringify') as typeof fastJsonStringifyModule);

function compile(route: Parameters<FastifySerializerCompiler<ZodType>>[0]): Serialize {
  let jsonSchema: object;
  try {
    jsonSchema = z.toJSONSchema(route.schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' });
  } catch {
    return zodSerializerCompiler(route) as Serialize;
  }
  return loadFastJsonStringify()(jsonSchema) as Serialize;
}

/**
 * Responses are written by fast-json-stringify, compiled from the route's zod response schema.
 * Like zod's own serializer it writes only the fields the schema declares, so a password hash or
 * an internal column can never slip into an answer; unlike it, it does not walk and re-check
 * every value per request (that alone cost a sixth of the health route's throughput). A schema
 * JSON Schema cannot express (dates, transforms) keeps zod's serializer.
 *
 * Each route's serializer is compiled once, on its first answer rather than at start: compiling
 * all of them held up listening, for routes most runs never call.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ZodType> = (route) => {
  let serialize: Serialize | undefined;
  return (data) => (serialize ??= compile(route))(data);
};
