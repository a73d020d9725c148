/** What a 'New Message' notification says about a message. */
export interface MessageSummary {
  senderName: string;
  /** The message's text (or a description of a booking request); the notification cuts it to 50 characters. */
  preview: string;
  conversationId: string;
}

/**
 * The messaging module's answer to "what is this message?", for the notifications it causes. The
 * notifications module never reads messaging's tables; messaging implements it (MessagingSummaries).
 */
export abstract class MessageSummaries {
  /** The message's summary, or null when it is gone (deleted, or no messaging here). */
  abstract summary(messageId: string): Promise<MessageSummary | null>;
}
