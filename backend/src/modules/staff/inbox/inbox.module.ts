import { Global, Module } from '@nestjs/common';
import { InboxSources } from './inbox-source.js';

/**
 * The staff inbox's port: modules with items for staff (contact, reports, feedback) register an
 * InboxSource here; the staff module reads them all. Global, so a source module needs no import.
 */
@Global()
@Module({ providers: [InboxSources], exports: [InboxSources] })
export class InboxModule {}
