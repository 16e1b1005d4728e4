package io.sluice.transport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Counts the messages a receiver refused, per source and kind of fault, and logs them without letting
 * a flood of bad input flood the log: the first of each (source, kind) at once, then at most one line
 * per {@link #INTERVAL_NS} with how many more came. At most {@link #MAX_KEYS} (source, kind) pairs are
 * remembered. Thread-safe.
 */
public final class RejectionLog {
    /** The least time between two lines about one source and kind. */
    public static final long INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);
    static final int MAX_KEYS = 1024;

    private record Key(String source, String kind) {
    }

    private static final class Entry {
        long total;
        long unlogged;
        long loggedAtNs;
    }

    private final String receiver;
    private final Consumer<String> log;
    private final LongSupplier clock;
    private final Map<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<Key, Entry> eldest) {
            return size() > MAX_KEYS;
        }
    };
    private long total;

    /**
     * @param receiver names the receiving end in log lines ("the CN cn1's data stream")
     * @param log      where lines go
     */
    public RejectionLog(final String receiver, final Consumer<String> log) {
        this(receiver, log, System::nanoTime);
    }

    RejectionLog(final String receiver, final Consumer<String> log, final LongSupplier clock) {
        this.receiver = receiver;
        this.log = log;
        this.clock = clock;
    }

    /**
     * Counts one refused message and logs it if its (source, kind) was not logged in the last interval.
     *
     * @param kind   the fault's kind, a short fixed phrase ("tag does not match", "replay")
     * @param detail what exactly was wrong with this one
     */
    public void reject(final String source, final String kind, final String detail) {
        final String line;
        synchronized (this) {
            total++;
            final Key key = new Key(source, kind);
            Entry e = entries.get(key);
            final long now = clock.getAsLong();
            if (e == null) {
                e = new Entry();
                entries.put(key, e);
                e.loggedAtNs = now - INTERVAL_NS;
            }
            e.total++;
            e.unlogged++;
            if (now - e.loggedAtNs < INTERVAL_NS) {
                return;
            }
            line = receiver + " dropped " + (e.unlogged == 1 ? "a message" : e.unlogged + " messages") + " from "
                    + source + " (" + kind + ", " + e.total + " so far): " + detail;
            e.unlogged = 0;
            e.loggedAtNs = now;
        }
        log.accept(line);
    }

    /** Messages refused so far, from every source. */
    public synchronized long total() {
        return total;
    }

    /** Messages refused so far from one source, of every kind (while it is remembered). */
    public synchronized long fromSource(final String source) {
        long n = 0;
        for (final Map.Entry<Key, Entry> e : entries.entrySet()) {
            if (e.getKey().source().equals(source)) {
                n += e.getValue().total;
            }
        }
        return n;
    }
}
