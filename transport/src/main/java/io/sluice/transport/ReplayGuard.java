package io.sluice.transport;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Refuses a message it has seen before: each sender (a process incarnation) numbers its messages to
 * one receiver from 1 up, and this keeps, per sender, the highest number seen and which of the
 * {@code window} numbers below it arrived. A number seen already, or older than the window, is
 * refused; numbers may arrive out of order within the window (threads sharing a publication take
 * numbers a moment before their messages enter the log). At most {@code maxSenders} senders are
 * remembered, the least recently heard forgotten first. Single-threaded.
 */
public final class ReplayGuard {
    /** What {@link #accept} found. */
    public enum Verdict {
        /** First time seen: act on it. */
        NEW,
        /** Seen already: a replay (or a duplicate). */
        REPLAYED,
        /** Older than the window: cannot be told from a replay. */
        STALE,
        /** Numbers start at 1. */
        INVALID
    }

    private final int window;
    private final Map<Long, Window> senders;

    /**
     * @param window     numbers remembered below the highest, per sender; a multiple of 64
     * @param maxSenders senders remembered
     */
    public ReplayGuard(final int window, final int maxSenders) {
        if (window <= 0 || window % 64 != 0) {
            throw new IllegalArgumentException("window must be a positive multiple of 64, got " + window);
        }
        this.window = window;
        this.senders = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(final Map.Entry<Long, Window> eldest) {
                return size() > maxSenders;
            }
        };
    }

    /** Records message {@code sequence} of {@code sender} and says whether it is new. */
    public Verdict accept(final long sender, final long sequence) {
        if (sequence <= 0) {
            return Verdict.INVALID;
        }
        Window w = senders.get(sender);
        if (w == null) {
            w = new Window(window);
            senders.put(sender, w);
        }
        return w.accept(sequence);
    }

    /** Senders remembered now. */
    public int senderCount() {
        return senders.size();
    }

    private static final class Window {
        private final long[] seen;
        private final int size;
        private long highest;

        Window(final int size) {
            this.size = size;
            this.seen = new long[size / 64];
        }

        Verdict accept(final long sequence) {
            if (sequence > highest) {
                final long advance = sequence - highest;
                if (advance >= size) {
                    java.util.Arrays.fill(seen, 0);
                } else {
                    for (long s = highest + 1; s < sequence; s++) {
                        clear(s);
                    }
                }
                highest = sequence;
                set(sequence);
                return Verdict.NEW;
            }
            if (highest - sequence >= size) {
                return Verdict.STALE;
            }
            if (isSet(sequence)) {
                return Verdict.REPLAYED;
            }
            set(sequence);
            return Verdict.NEW;
        }

        private int slot(final long sequence) {
            return (int) (sequence % size);
        }

        private boolean isSet(final long sequence) {
            final int s = slot(sequence);
            return (seen[s >>> 6] & (1L << s)) != 0;
        }

        private void set(final long sequence) {
            final int s = slot(sequence);
            seen[s >>> 6] |= 1L << s;
        }

        private void clear(final long sequence) {
            final int s = slot(sequence);
            seen[s >>> 6] &= ~(1L << s);
        }
    }
}
