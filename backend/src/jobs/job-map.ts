/**
 * Every background job: its name, the queue it runs on and its payload type, declared once.
 * Producers stage jobs through the outbox; each job has exactly one handler (checked at boot).
 */
export const QUEUE_NAMES = ['mail'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface JobPayloads {
  /** Deliver a stored contact message to staff and acknowledge it to the sender. */
  'contact.deliver': { contactMessageId: string };
}

export type JobName = keyof JobPayloads;

export const JOB_QUEUES: { readonly [N in JobName]: QueueName } = {
  'contact.deliver': 'mail',
};

export const JOB_NAMES = Object.keys(JOB_QUEUES) as JobName[];

/** Retries with exponential back-off; failed jobs are kept so operators can see them. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 1_000 },
  removeOnFail: false,
} as const;
