import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { MESSAGING_TEXTS } from '@contracts/messaging';
import { onLiveEvent } from '../../stores/live-events';
import { redirectToSignIn, requireSignedIn } from '../auth/protected-route';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { ChatPanel } from './ChatPanel';
import { ConversationList } from './ConversationList';
import {
  blockUser,
  decideBooking,
  deleteConversation,
  getConversation,
  listConversations,
  loadMessages,
  markRead,
  sendMessage,
  unblockUser,
  type ChatMessage,
  type Conversation,
} from './messages-api';
import { appendPage, applyNewMessage, clearUnread, keepReadTicks, markMessagesRead, mergeMessage, prependPage } from './messages-logic';
import './messages.css';
import './messages-bell.css';

/** SPEC §9: a live message is marked read after 1 s; the chat reloads 1 s after a send. */
const READ_AFTER_LIVE_MS = 1_000;
const RELOAD_AFTER_SEND_MS = 1_000;
/** The server is asked once typing pauses this long. */
const SEARCH_AFTER_MS = 300;

function setConversationParam(id: string | null): void {
  const url = new URL(window.location.href);
  if (id) url.searchParams.set('conversation', id);
  else url.searchParams.delete('conversation');
  window.history.replaceState(null, '', url);
}

/** /messages: the list and the open chat, kept live (SPEC §2 "Messages", §4 "Messages"). */
function MessagesPage() {
  const [myId, setMyId] = useState<string | null>(null);
  const [conversations, setConversations] = useState<Conversation[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  /** The open conversation when it is not among the pages loaded (opened from a link). */
  const [detached, setDetached] = useState<Conversation | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [olderCursor, setOlderCursor] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const openRef = useRef<string | null>(null);
  const meRef = useRef<string | null>(null);
  const queryRef = useRef('');
  /** Counts list loads: an answer to an older search never replaces a newer one. */
  const listLoads = useRef(0);
  openRef.current = openId;
  meRef.current = myId;
  queryRef.current = query;

  /** The first page for the current search (every conversation when there is none). */
  const loadList = useCallback(async () => {
    const load = ++listLoads.current;
    const result = await listConversations({ q: queryRef.current });
    if (load !== listLoads.current) return;
    if (result.ok) {
      // A transition: a long list renders in slices rather than as one long task on a phone.
      startTransition(() => {
        setConversations(result.data.conversations);
        setNextCursor(result.data.next_cursor);
      });
    } else if (result.status === 401) redirectToSignIn();
    else {
      // SPEC §8: messaging failures are logged and the list comes back empty.
      console.error(result.error);
      setConversations((current) => current ?? []);
    }
  }, []);

  const loadChat = useCallback(async (id: string) => {
    const result = await loadMessages(id);
    if (openRef.current !== id) return;
    if (result.ok) {
      const fetched = result.data.messages;
      setMessages((shown) => keepReadTicks(shown, fetched));
      setOlderCursor(result.data.next_cursor);
    } else {
      console.error(result.error);
      setMessages([]);
    }
  }, []);

  const open = useCallback(
    async (id: string) => {
      const me = meRef.current;
      if (!me) return;
      setOpenId(id);
      openRef.current = id;
      setMessages(null);
      setOlderCursor(null);
      setConversationParam(id);
      // Clicking a row marks its messages read, then opens it (SPEC §2).
      await markRead(id, me);
      setConversations((list) => (list ? clearUnread(list, id) : list));
      const listed = await getConversation(id);
      if (openRef.current === id && listed.ok) setDetached(listed.data);
      await loadChat(id);
    },
    [loadChat],
  );

  useEffect(() => {
    void requireSignedIn().then(async (user) => {
      if (!user) return;
      setMyId(user.id);
      meRef.current = user.id;
      await loadList();
      const wanted = new URLSearchParams(window.location.search).get('conversation');
      if (wanted) void open(wanted);
    });
  }, [loadList, open]);

  // The search box asks the server once typing pauses (it finds conversations not loaded yet).
  const searched = useRef(false);
  useEffect(() => {
    if (!myId) return;
    if (!searched.current && !query) return; // the first page is already loading
    searched.current = true;
    const timer = setTimeout(() => void loadList(), SEARCH_AFTER_MS);
    return () => clearTimeout(timer);
  }, [myId, query, loadList]);

  // Live updates: new messages, the other side reading ours, booking decisions.
  useEffect(() => {
    if (!myId) return;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const offNew = onLiveEvent('NEW_MESSAGE', ({ data }) => {
      const message = data.message;
      if (message.conversation_id === openRef.current) {
        setMessages((list) => (list ? mergeMessage(list, message) : list));
        if (message.sender_id !== myId) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (openRef.current === message.conversation_id) void markRead(message.conversation_id, myId);
          }, READ_AFTER_LIVE_MS);
          timers.add(timer);
        }
      }
      setConversations((list) => {
        const next = list ? applyNewMessage(list, message, myId, openRef.current) : undefined;
        if (!next) void loadList();
        return next ?? list;
      });
    });
    const offRead = onLiveEvent('MESSAGES_READ', ({ data }) => {
      if (data.reader_id === myId) setConversations((list) => (list ? clearUnread(list, data.conversation_id) : list));
      else if (data.conversation_id === openRef.current) setMessages((list) => (list ? markMessagesRead(list, data.message_ids) : list));
    });
    const offBooking = onLiveEvent('BOOKING_UPDATED', ({ data }) => {
      if (data.message.conversation_id === openRef.current) setMessages((list) => (list ? mergeMessage(list, data.message) : list));
    });
    return () => {
      offNew();
      offRead();
      offBooking();
      timers.forEach(clearTimeout);
    };
  }, [myId, loadList]);

  if (!myId) return <p className="messages-loading">Loading...</p>;

  const conversation = conversations?.find((c) => c.id === openId) ?? (detached?.id === openId ? detached : null);

  const loadMore = async () => {
    if (!nextCursor || loadingMore) return;
    setLoadingMore(true);
    const load = listLoads.current;
    const result = await listConversations({ cursor: nextCursor, q: query });
    setLoadingMore(false);
    if (load !== listLoads.current) return; // the search changed meanwhile
    if (!result.ok) {
      showToast({ title: 'Error', description: result.error, variant: 'destructive' });
      return;
    }
    setConversations((list) => appendPage(list ?? [], result.data.conversations));
    setNextCursor(result.data.next_cursor);
  };

  const close = () => {
    setOpenId(null);
    setMessages(null);
    setConversationParam(null);
  };

  const send = async (content: string): Promise<boolean> => {
    if (!conversation) return false;
    const result = await sendMessage(conversation.id, content);
    if (!result.ok) {
      showToast({
        title: MESSAGING_TEXTS.sendFailedTitle,
        description: result.status >= 400 && result.status < 500 ? result.error : MESSAGING_TEXTS.sendFailed,
        variant: 'destructive',
      });
      return false;
    }
    setMessages((list) => mergeMessage(list ?? [], result.data));
    setConversations((list) => (list ? (applyNewMessage(list, result.data, myId, conversation.id) ?? list) : list));
    setTimeout(() => {
      if (openRef.current === conversation.id) void loadChat(conversation.id);
    }, RELOAD_AFTER_SEND_MS);
    return true;
  };

  const remove = async () => {
    if (!conversation || !window.confirm(MESSAGING_TEXTS.deleteConfirm)) return;
    const result = await deleteConversation(conversation.id);
    if (!result.ok) {
      window.alert(MESSAGING_TEXTS.deleteFailed);
      return;
    }
    setConversations((list) => (list ? list.filter((c) => c.id !== conversation.id) : list));
    close();
  };

  const toggleBlock = async () => {
    if (!conversation) return;
    const other = conversation.other_participant;
    const blocking = !conversation.blocked;
    const result = blocking ? await blockUser(other.id) : await unblockUser(other.id);
    if (!result.ok) {
      showToast({ title: 'Error', description: result.error, variant: 'destructive' });
      return;
    }
    const change = (c: Conversation) => (c.other_participant.id === other.id ? { ...c, blocked: blocking } : c);
    setConversations((list) => (list ? list.map(change) : list));
    setDetached((shown) => shown && change(shown));
    showToast({
      title: blocking ? 'User blocked' : 'User unblocked',
      description: blocking ? `${other.name} can no longer message you.` : `You and ${other.name} can message each other again.`,
      variant: 'success',
    });
  };

  const decide = async (message: ChatMessage, decision: 'accepted' | 'declined') => {
    const result = await decideBooking(message.id, decision);
    if (!result.ok) {
      showToast({ title: 'Error', description: result.error, variant: 'destructive' });
      return;
    }
    setMessages((list) => (list ? mergeMessage(list, result.data) : list));
    showToast({ title: decision === 'accepted' ? 'Booking accepted' : 'Booking declined', variant: 'success' });
  };

  const loadOlder = async () => {
    if (!conversation || !olderCursor) return;
    const result = await loadMessages(conversation.id, olderCursor);
    if (!result.ok) return;
    setMessages((list) => prependPage(list ?? [], result.data.messages));
    setOlderCursor(result.data.next_cursor);
  };

  const markOpenRead = async () => {
    if (!conversation) return;
    await markRead(conversation.id, myId);
    setConversations((list) => (list ? clearUnread(list, conversation.id) : list));
  };

  return (
    <div className="messages-layout" data-open={conversation ? 'true' : 'false'}>
      <ConversationList
        conversations={conversations}
        myId={myId}
        openId={openId}
        query={query}
        onQuery={setQuery}
        onOpen={(c) => void open(c.id)}
        hasMore={Boolean(nextCursor)}
        loadingMore={loadingMore}
        onLoadMore={() => void loadMore()}
      />
      {conversation ? (
        <ChatPanel
          conversation={conversation}
          myId={myId}
          messages={messages}
          hasOlder={Boolean(olderCursor)}
          onBack={close}
          onRefresh={() => void open(conversation.id)}
          onLoadOlder={() => void loadOlder()}
          onMarkRead={() => void markOpenRead()}
          onToggleBlock={() => void toggleBlock()}
          onDelete={() => void remove()}
          onSend={send}
          onDecide={(message, decision) => void decide(message, decision)}
        />
      ) : (
        <section className="card chat chat--placeholder" aria-label="No conversation selected">
          <p className="chat__placeholder-title">Select a conversation</p>
          <p>Choose a conversation from the list to start messaging</p>
        </section>
      )}
    </div>
  );
}

export default withErrorBoundary(MessagesPage);
