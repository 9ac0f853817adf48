/** The shapes of the OpenAPI 3.1 document `openapi.ts` builds. */
/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  description?: string;
  style?: 'simple' | 'form' | 'deepObject';
  explode?: boolean;
  allowEmptyValue?: boolean;
  schema: JsonSchema;
}

export interface OpenApiMediaType {
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, OpenApiMediaType>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
  'x-permission'?: string;
}

export type OpenApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type OpenApiPathItem = Partial<Record<OpenApiMethod, OpenApiOperation>>;

type OpenApiSecurityScheme =
  | { type: 'apiKey'; in: 'cookie'; name: string; description: string }
  | { type: 'http'; scheme: 'bearer'; description: string };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string; description?: string }>;
  tags: Array<{ name: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, OpenApiPathItem>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, OpenApiSecurityScheme> };
}
