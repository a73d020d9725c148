import { Category } from '../../modules/categories/category.entity.js';
import { ContactMessage } from '../../modules/contact/contact-message.entity.js';
import { OutboxJob } from '../queue/outbox-job.entity.js';

/** Every entity, listed once for the ORM and the migration generator. */
export const ENTITIES = [Category, ContactMessage, OutboxJob];
