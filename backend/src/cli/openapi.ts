import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { stringify } from 'yaml';
import { AppModule } from '../app.module.js';
import { useApiPrefix } from '../common/api-prefix.js';
import { loadConfig } from '../config/env.js';
import { completeContract } from './openapi-contract.js';

/**
 * Writes the OpenAPI contract generated from the controllers and DTOs (no database needed:
 * the app is built in preview mode, which resolves metadata without creating providers).
 * Usage: node backend/dist/cli/openapi.js [output.yaml]
 */
const output = process.argv[2] ?? 'openapi.yaml';
const neverConnected = 'postgres://contract@127.0.0.1:1/none'; // preview mode opens no connection
// Every route the product can serve, the switched ones included.
const config = loadConfig({ FRONTEND_DIR: 'none', DATABASE_URL: neverConnected, DIAGNOSTIC_ROUTES: 'true' });
const app = await NestFactory.create<NestFastifyApplication>(
  AppModule.forRoot(config, neverConnected, { kind: 'web', runWorkers: false }),
  new FastifyAdapter(),
  { preview: true, logger: false },
);
useApiPrefix(app);
const document = SwaggerModule.createDocument(
  app,
  new DocumentBuilder()
    .setTitle('Fieldmarket API')
    .setDescription('UK agricultural marketplace. Every response is an envelope: { success: true, data } or { success: false, error }.')
    .setVersion('0.1.0')
    .addServer('/', 'The deployment serving this document')
    .build(),
);
// No licence is granted (package.json: UNLICENSED); Redocly asks the document to say so.
document.info.license = { name: 'Proprietary' };
completeContract(app, document);
await writeFile(output, stringify(document, { sortMapEntries: false, aliasDuplicateObjects: false }));
await app.close();
console.log(`wrote ${output}`);
