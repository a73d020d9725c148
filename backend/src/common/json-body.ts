import { BadRequestException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import { errorCodes, type FastifyInstance } from 'fastify';
import { NUL_MESSAGE } from './dependency-errors.js';
import { FieldValidationException } from './errors.js';

const NOT_AN_OBJECT = 'Request body must be a JSON object of named fields.';

/**
 * Far above any real form, and low enough that validating and transforming a body stays cheap:
 * class-transformer's work grows with the square of an object's key count, so a 930 KB body of
 * 100,000 keys used to hold the whole process for 13 s.
 */
export const JSON_BODY_LIMITS = { depth: 20, keysPerObject: 1_000, itemsPerList: 5_000, values: 10_000 };

const ENCODED_BODY_MESSAGE = 'Compressed request bodies are not accepted; send JSON as it is.';

/**
 * Makes JSON the only body the app accepts (anything else gets 415, form posts included, so a
 * foreign site cannot submit a plain HTML form to the API) and parses it with limits checked in
 * one linear pass, before a DTO ever sees it. A body with a Content-Encoding (gzip) gets 415 too:
 * our pages never send one, and inflating it would let a small body grow past the size limit.
 *
 * A route that takes files (uploads) registers @fastify/multipart inside its own encapsulated
 * plugin, so multipart is accepted there and nowhere else.
 */
export function acceptJsonBodiesOnly(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      done(new UnsupportedMediaTypeException(ENCODED_BODY_MESSAGE), undefined);
      return;
    }
    try {
      done(null, parseBoundedJson(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** JSON.parse (iterative in V8, so deep nesting cannot overflow the stack), then one bounded walk. */
export function parseBoundedJson(text: string): unknown {
  if (text.trim() === '') throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  // Every body of the API is an object of named fields: a list or a bare value would otherwise reach a DTO as
  // no fields at all, and be answered "Name is required" for a name that was sent.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadRequestException(NOT_AN_OBJECT);
  new BodyWalk().visit(value, [], 0);
  return value;
}

class BodyWalk {
  private values = 0;

  visit(value: unknown, path: string[], depth: number): void {
    if (++this.values > JSON_BODY_LIMITS.values) {
      throw new PayloadTooLargeException(`Request body has more than ${JSON_BODY_LIMITS.values} values in total.`);
    }
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw nulIn(path);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (depth >= JSON_BODY_LIMITS.depth) {
      throw new BadRequestException(`Request body is nested too deeply (more than ${JSON_BODY_LIMITS.depth} levels).`);
    }
    if (Array.isArray(value)) {
      if (value.length > JSON_BODY_LIMITS.itemsPerList) {
        throw new PayloadTooLargeException(`A list in the request body has more than ${JSON_BODY_LIMITS.itemsPerList} items${at(path)}.`);
      }
      value.forEach((item, index) => this.visit(item, [...path, String(index)], depth + 1));
      return;
    }
    let keys = 0;
    for (const key in value) {
      if (++keys > JSON_BODY_LIMITS.keysPerObject) {
        throw new PayloadTooLargeException(
          `An object in the request body has more than ${JSON_BODY_LIMITS.keysPerObject} keys${at(path)}.`,
        );
      }
      // The same keys Fastify's secure-json-parse refuses: copied onto another object they change its prototype.
      const child = (value as Record<string, unknown>)[key];
      if (key === '__proto__') throw new BadRequestException('The key __proto__ is not allowed.');
      if (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype')) {
        throw new BadRequestException('The key constructor.prototype is not allowed.');
      }
      if (key.includes('\u0000')) throw nulIn([...path, key]);
      this.visit(child, [...path, key], depth + 1);
    }
  }
}

const at = (path: string[]) => (path.length > 0 ? ` (at "${path.join('.')}")` : '');

/** PostgreSQL cannot store U+0000, so it is refused here, naming the field, rather than failing at the insert. */
const nulIn = (path: string[]) =>
  new FieldValidationException({ [path.length > 0 ? path.map((p) => p.replaceAll('\u0000', '\\u0000')).join('.') : 'body']: NUL_MESSAGE });
