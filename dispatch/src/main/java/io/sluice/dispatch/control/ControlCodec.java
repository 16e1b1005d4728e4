package io.sluice.dispatch.control;

import io.sluice.dispatch.control.ControlMessage.Accept;
import io.sluice.dispatch.control.ControlMessage.Cancel;
import io.sluice.dispatch.control.ControlMessage.CancelRequest;
import io.sluice.dispatch.control.ControlMessage.Challenge;
import io.sluice.dispatch.control.ControlMessage.ClientHeartbeat;
import io.sluice.dispatch.control.ControlMessage.CnHeartbeat;
import io.sluice.dispatch.control.ControlMessage.CnUsage;
import io.sluice.dispatch.control.ControlMessage.CoordinatorHeartbeat;
import io.sluice.dispatch.control.ControlMessage.Evicted;
import io.sluice.dispatch.control.ControlMessage.Failed;
import io.sluice.dispatch.control.ControlMessage.Finished;
import io.sluice.dispatch.control.ControlMessage.Hello;
import io.sluice.dispatch.control.ControlMessage.Leave;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.dispatch.control.ControlMessage.Prepare;
import io.sluice.dispatch.control.ControlMessage.Prepared;
import io.sluice.dispatch.control.ControlMessage.QueryAccepted;
import io.sluice.dispatch.control.ControlMessage.QueryDone;
import io.sluice.dispatch.control.ControlMessage.QueryFailed;
import io.sluice.dispatch.control.ControlMessage.QueryProgress;
import io.sluice.dispatch.control.ControlMessage.QueryRequest;
import io.sluice.dispatch.control.ControlMessage.Register;
import io.sluice.dispatch.control.ControlMessage.Reject;
import io.sluice.dispatch.control.ControlMessage.FilterPartials;
import io.sluice.dispatch.control.ControlMessage.FilterReady;
import io.sluice.dispatch.control.ControlMessage.ResultBatch;
import io.sluice.dispatch.control.ControlMessage.ResultEnd;
import io.sluice.dispatch.control.ControlMessage.Shutdown;
import io.sluice.dispatch.control.ControlMessage.Start;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.dispatch.control.ControlMessage.StatusRequest;
import io.sluice.engine.exec.RuntimeFilterState;
import io.sluice.engine.exec.PipelineCounters;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.plan.PlanCodec;
import io.sluice.engine.wire.EnumCodes;
import io.sluice.engine.wire.WireFormatException;
import io.sluice.engine.wire.WireReader;
import io.sluice.engine.wire.WireWriter;
import io.sluice.shuffle.Topology;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.roaringbitmap.RoaringBitmap;

/**
 * The wire form of {@link ControlMessage}s, little-endian: an 8-byte header, magic {@code "SLCC"}
 * (int), protocol {@link #VERSION} (short) and the message type (short), then the message's fields in
 * declaration order (a string is an int length and UTF-8 bytes, a list an int count and its items, a
 * nullable value a presence byte before it), then a {@link #TRAILER_LENGTH}-byte trailer: the sender's
 * incarnation, the receiver's incarnation (0 before the sender knows it), a sequence number and a
 * 16-byte tag, which {@link ControlPublisher} fills in and {@link ControlSubscriber} checks
 * ({@link ControlAuthentication}); {@link #encode} leaves it zero.
 *
 * <p>Some of it never changes from one version to the next, so that processes of different versions
 * can still tell each other so: the header; {@link Register}, {@link QueryRequest} and
 * {@link StatusRequest} start with their reply address; {@link Reject} is the header and a reason.
 * A message of another version is a {@link ControlVersionException} carrying its reply address when
 * it has one, except a {@link Reject}, which decodes whatever its version.
 *
 * <p>Decoding trusts nothing: magic, version, type, every count, length and enum code is checked
 * before use, the records' own rules apply, and bytes left after the message are an error; all of
 * these are a {@link WireFormatException} naming the field. One codec per thread.
 */
public final class ControlCodec {
    /** "SLCC" as a little-endian int. */
    public static final int MAGIC = 'S' | 'L' << 8 | 'C' << 16 | 'C' << 24;
    /**
     * The protocol version this build speaks: 2 adds the trailer, first contact and client liveness; 3 runtime
     * filter stats and the partial and merged runtime filters; 4 what the coordinator's sorts did; 5 the PKEY,
     * GATHER and ROUND_ROBIN distributions in decisions and the blocks each exchange sent as stored; 6 the
     * doorbell ports of Challenge and Register, a member's pid and whether the coordinator's process started it,
     * and each CN's incarnation beside its data address in a prepare, from which the keys of sealed frames derive;
     * 7 a prepare's plan decided by the coordinator (plan format 9), which a CN only cuts into pipelines; 8 the
     * doorbell port of a Hello (a client's), and a CN given a prepare of a one-CN query runs it once compiled,
     * without waiting for a Start; 9 whether a query request and a prepare ask for the plan's EXPLAIN, which CN 0
     * renders only then, and the peak and spilled bytes of each operator that holds rows in a query's stats; 10
     * what a CN read of a store on object storage (GETs, their bytes, block cache hits and their bytes) in its
     * finished stats, and their sum in a query's; 11 a query's done carries its result's column names as SQL
     * names them, which two columns may share while the result type's are unique, and (a type added, no field
     * changed) {@code Evicted}; 12 what a CN's block cache holds (a bitmap of blocks per table) in its finished, and
     * every CN's in a prepare, so that scans no colocation pins read each block where it is cached.
     */
    public static final short VERSION = 12;
    /** Bytes before the fields: magic, version, type. */
    public static final int HEADER_LENGTH = 8;
    /** Bytes after the fields: sender incarnation, receiver incarnation, sequence, tag. */
    public static final int TRAILER_LENGTH = 24 + io.sluice.transport.MessageAuthenticator.TAG_LENGTH;
    /** From the end of a message: where its trailer's fields start. */
    static final int SENDER_FROM_END = TRAILER_LENGTH;
    static final int RECEIVER_FROM_END = TRAILER_LENGTH - 8;
    static final int SEQUENCE_FROM_END = TRAILER_LENGTH - 16;
    static final int TAG_FROM_END = io.sluice.transport.MessageAuthenticator.TAG_LENGTH;

    static final short REGISTER = 1;
    static final short ACCEPT = 2;
    static final short REJECT = 3;
    static final short CN_HEARTBEAT = 4;
    static final short COORDINATOR_HEARTBEAT = 5;
    static final short LEAVE = 6;
    static final short SHUTDOWN = 7;
    static final short HELLO = 8;
    static final short CHALLENGE = 9;
    static final short PREPARE = 10;
    static final short PREPARED = 11;
    static final short START = 12;
    static final short CANCEL = 13;
    static final short FINISHED = 14;
    static final short FAILED = 15;
    static final short RESULT_BATCH = 16;
    static final short RESULT_END = 17;
    static final short FILTER_PARTIALS = 18;
    static final short FILTER_READY = 19;
    static final short QUERY_REQUEST = 20;
    static final short QUERY_ACCEPTED = 21;
    static final short QUERY_PROGRESS = 22;
    static final short QUERY_DONE = 23;
    static final short QUERY_FAILED = 24;
    static final short STATUS_REQUEST = 25;
    static final short STATUS = 26;
    static final short CANCEL_REQUEST = 27;
    static final short CLIENT_HEARTBEAT = 28;
    static final short EVICTED = 29;

    private static final int MIN_STRING = 4;
    private static final int MIN_ADDRESS = MIN_STRING + 4;

    static final EnumCodes<Distribution> DISTRIBUTIONS = EnumCodes.of(Distribution.class, Distribution.BROADCAST,
            Distribution.MERGE, Distribution.SHUFFLE_HASH, Distribution.SHUFFLE_RANGE, Distribution.COLOCATE,
            Distribution.HYBRID, Distribution.REUSE_SHUFFLE, Distribution.PKEY, Distribution.GATHER,
            Distribution.ROUND_ROBIN);
    static final EnumCodes<MemberState> STATES = EnumCodes.of(MemberState.class, MemberState.ALIVE,
            MemberState.SUSPECT, MemberState.DEAD);

    private final WireWriter out = new WireWriter(256);
    private final WireReader in = new WireReader(new UnsafeBuffer(new byte[0]), 0, 0);

    /** Encodes a message into this codec's buffer, from offset 0; returns its length. */
    public int encode(final ControlMessage message) {
        out.reset();
        out.writeInt(MAGIC);
        out.writeShort(VERSION);
        out.writeShort(typeOf(message));
        writeBody(message);
        for (int i = 0; i < TRAILER_LENGTH; i += 8) {
            out.writeLong(0);
        }
        return out.length();
    }

    /** The buffer the last {@link #encode} wrote. */
    public DirectBuffer buffer() {
        return out.buffer();
    }

    /** The same buffer, for filling in the trailer. */
    MutableDirectBuffer mutableBuffer() {
        return (MutableDirectBuffer) out.buffer();
    }

    /** A message's bytes, for tests and tools. */
    public byte[] toBytes(final ControlMessage message) {
        encode(message);
        return out.toByteArray();
    }

    private static short typeOf(final ControlMessage m) {
        if (m instanceof Hello) {
            return HELLO;
        } else if (m instanceof Challenge) {
            return CHALLENGE;
        } else if (m instanceof CancelRequest) {
            return CANCEL_REQUEST;
        } else if (m instanceof ClientHeartbeat) {
            return CLIENT_HEARTBEAT;
        } else if (m instanceof Register) {
            return REGISTER;
        } else if (m instanceof Accept) {
            return ACCEPT;
        } else if (m instanceof Reject) {
            return REJECT;
        } else if (m instanceof CnHeartbeat) {
            return CN_HEARTBEAT;
        } else if (m instanceof CoordinatorHeartbeat) {
            return COORDINATOR_HEARTBEAT;
        } else if (m instanceof Leave) {
            return LEAVE;
        } else if (m instanceof Shutdown) {
            return SHUTDOWN;
        } else if (m instanceof Evicted) {
            return EVICTED;
        } else if (m instanceof Prepare) {
            return PREPARE;
        } else if (m instanceof Prepared) {
            return PREPARED;
        } else if (m instanceof Start) {
            return START;
        } else if (m instanceof Cancel) {
            return CANCEL;
        } else if (m instanceof Finished) {
            return FINISHED;
        } else if (m instanceof Failed) {
            return FAILED;
        } else if (m instanceof FilterPartials) {
            return FILTER_PARTIALS;
        } else if (m instanceof FilterReady) {
            return FILTER_READY;
        } else if (m instanceof ResultBatch) {
            return RESULT_BATCH;
        } else if (m instanceof ResultEnd) {
            return RESULT_END;
        } else if (m instanceof QueryRequest) {
            return QUERY_REQUEST;
        } else if (m instanceof QueryAccepted) {
            return QUERY_ACCEPTED;
        } else if (m instanceof QueryProgress) {
            return QUERY_PROGRESS;
        } else if (m instanceof QueryDone) {
            return QUERY_DONE;
        } else if (m instanceof QueryFailed) {
            return QUERY_FAILED;
        } else if (m instanceof StatusRequest) {
            return STATUS_REQUEST;
        } else if (m instanceof Status) {
            return STATUS;
        }
        throw new IllegalStateException("no wire type for " + m.getClass().getName());
    }

    private void writeBody(final ControlMessage m) {
        if (m instanceof Hello h) {
            writeAddress(h.replyTo());
            out.writeLong(h.incarnation());
            out.writeInt(h.doorbell());
        } else if (m instanceof Challenge c) {
            out.writeLong(c.coordinatorIncarnation());
            out.writeInt(c.doorbell());
        } else if (m instanceof CancelRequest c) {
            writeAddress(c.replyTo());
            out.writeLong(c.requestId());
            out.writeString(c.reason());
        } else if (m instanceof ClientHeartbeat h) {
            writeAddress(h.replyTo());
        } else if (m instanceof Register r) {
            writeAddress(r.replyTo());
            out.writeString(r.name());
            out.writeInt(r.cores());
            writeAddress(r.data());
            out.writeLong(r.pid());
            out.writeLong(r.incarnation());
            out.writeString(r.build());
            out.writeInt(r.doorbell());
        } else if (m instanceof Accept a) {
            out.writeLong(a.memberId());
            out.writeLong(a.epoch());
            out.writeInt(a.position());
            out.writeInt(a.memberCount());
            out.writeLong(a.coordinatorIncarnation());
            writeAddress(a.results());
        } else if (m instanceof Reject r) {
            out.writeString(r.reason());
        } else if (m instanceof CnHeartbeat h) {
            out.writeLong(h.memberId());
            out.writeLong(h.incarnation());
            out.writeInt(h.activeQueries());
            out.writeLong(h.rssBytes());
            out.writeLong(h.rejectedMessages());
            out.writeLong(h.retransmits());
        } else if (m instanceof CoordinatorHeartbeat h) {
            out.writeLong(h.coordinatorIncarnation());
            out.writeLong(h.epoch());
            out.writeInt(h.memberCount());
        } else if (m instanceof Leave l) {
            out.writeLong(l.memberId());
            out.writeLong(l.incarnation());
        } else if (m instanceof Shutdown s) {
            out.writeLong(s.coordinatorIncarnation());
            out.writeString(s.reason());
        } else if (m instanceof Evicted e) {
            out.writeLong(e.coordinatorIncarnation());
            out.writeString(e.reason());
        } else if (m instanceof Prepare p) {
            out.writeLong(p.queryId());
            out.writeString(p.name());
            out.writeInt(p.index());
            out.writeInt(p.cnCount());
            out.writeInt(p.cores());
            out.writeInt(p.data().size());
            for (int i = 0; i < p.data().size(); i++) {
                writeAddress(p.data().get(i));
                out.writeLong(p.incarnations().get(i));
            }
            out.writeBytes(p.plan());
            out.writeBoolean(p.explain());
            writeCaches(p.caches());
        } else if (m instanceof Prepared p) {
            out.writeLong(p.queryId());
            out.writeLong(p.memberId());
            out.writeInt(p.index());
        } else if (m instanceof Start s) {
            out.writeLong(s.queryId());
        } else if (m instanceof Cancel c) {
            out.writeLong(c.queryId());
            out.writeString(c.reason());
        } else if (m instanceof Finished f) {
            out.writeLong(f.queryId());
            out.writeLong(f.memberId());
            out.writeInt(f.index());
            writeStats(f.stats());
            out.writeLong(f.rssBytes());
            writeNullableRowType(f.resultType());
            writeDecisions(f.decisions());
            writeNullableString(f.explain());
            writeCaches(f.caches());
        } else if (m instanceof Failed f) {
            out.writeLong(f.queryId());
            out.writeLong(f.memberId());
            out.writeInt(f.index());
            out.writeString(f.errorType());
            out.writeString(f.message());
            out.writeBoolean(f.secondary());
        } else if (m instanceof FilterPartials f) {
            out.writeLong(f.queryId());
            out.writeLong(f.memberId());
            out.writeInt(f.index());
            out.writeInt(f.filterId());
            out.writeBoolean(f.merge());
            out.writeBytes(f.partials());
        } else if (m instanceof FilterReady f) {
            out.writeLong(f.queryId());
            out.writeInt(f.filterId());
            out.writeBytes(f.partials());
        } else if (m instanceof ResultBatch b) {
            out.writeLong(b.queryId());
            out.writeInt(b.sequence());
            out.writeBytes(b.block());
        } else if (m instanceof ResultEnd e) {
            out.writeLong(e.queryId());
            out.writeInt(e.batches());
            out.writeLong(e.rows());
        } else if (m instanceof QueryRequest q) {
            writeAddress(q.replyTo());
            out.writeLong(q.requestId());
            out.writeString(q.name());
            out.writeInt(q.cnCount());
            out.writeInt(q.cores());
            out.writeBytes(q.plan());
            out.writeLong(q.timeoutMillis());
            out.writeBoolean(q.explain());
        } else if (m instanceof QueryAccepted a) {
            out.writeLong(a.requestId());
            out.writeLong(a.queryId());
            out.writeInt(a.cnCount());
            out.writeInt(a.cores());
            writeStrings(a.members());
        } else if (m instanceof QueryProgress p) {
            out.writeLong(p.requestId());
            out.writeLong(p.queryId());
            out.writeLong(p.elapsedMillis());
        } else if (m instanceof QueryDone d) {
            out.writeLong(d.requestId());
            out.writeLong(d.queryId());
            writeStats(d.stats());
            writeNullableRowType(d.resultType());
            writeStrings(d.columns());
            writeDecisions(d.decisions());
            writeNullableString(d.explain());
            out.writeInt(d.usage().size());
            for (final CnUsage u : d.usage()) {
                out.writeString(u.name());
                out.writeLong(u.rssBytes());
            }
        } else if (m instanceof QueryFailed f) {
            out.writeLong(f.requestId());
            out.writeLong(f.queryId());
            out.writeString(f.errorType());
            out.writeString(f.message());
        } else if (m instanceof StatusRequest s) {
            writeAddress(s.replyTo());
            out.writeLong(s.requestId());
        } else if (m instanceof Status s) {
            out.writeLong(s.requestId());
            out.writeLong(s.coordinatorIncarnation());
            out.writeLong(s.epoch());
            out.writeInt(s.members().size());
            for (final MemberStatus ms : s.members()) {
                out.writeString(ms.name());
                out.writeLong(ms.memberId());
                out.writeString(ms.endpoint());
                out.writeInt(ms.cores());
                STATES.write(out, ms.state());
                out.writeLong(ms.sinceHeardMillis());
                out.writeInt(ms.activeQueries());
                out.writeLong(ms.rssBytes());
                out.writeLong(ms.rejectedMessages());
                out.writeLong(ms.retransmits());
                out.writeLong(ms.pid());
                out.writeBoolean(ms.launched());
            }
            out.writeLong(s.rejectedMessages());
            out.writeInt(s.runningQueries());
            out.writeInt(s.queuedQueries());
        }
    }

    private void writeAddress(final StreamAddress a) {
        out.writeString(a.channel());
        out.writeInt(a.stream());
    }

    private void writeStrings(final List<String> strings) {
        out.writeInt(strings.size());
        for (final String s : strings) {
            out.writeString(s);
        }
    }

    private void writeNullableString(final String s) {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeString(s);
        }
    }

    private void writeNullableRowType(final RowType rowType) {
        out.writeBoolean(rowType != null);
        if (rowType != null) {
            PlanCodec.writeRowType(out, rowType);
        }
    }

    private void writeDecisions(final List<Decision> decisions) {
        out.writeInt(decisions.size());
        for (final Decision d : decisions) {
            out.writeString(d.operator());
            DISTRIBUTIONS.write(out, d.choice());
            out.writeString(d.reason());
        }
    }

    private void writeCaches(final List<CachedBlocks> caches) {
        out.writeInt(caches.size());
        for (final CachedBlocks c : caches) {
            out.writeInt(c.index());
            out.writeString(c.table());
            final RoaringBitmap blocks = c.blocks();
            final byte[] bytes = new byte[blocks.serializedSizeInBytes()];
            blocks.serialize(ByteBuffer.wrap(bytes));
            out.writeBytes(bytes);
        }
    }

    private void writeStats(final QueryStats s) {
        out.writeString(s.query());
        out.writeString(s.strategy());
        out.writeInt(s.topology().cnCount());
        out.writeInt(s.topology().coresPerCn());
        out.writeLong(s.wallMillis());
        out.writeLong(s.wholeBlockRoutes());
        out.writeLong(s.splitBatches());
        out.writeInt(s.exchanges().size());
        for (final QueryStats.ExchangeStats e : s.exchanges()) {
            out.writeInt(e.id());
            out.writeString(e.mode());
            writeStrings(e.keys());
            out.writeLong(e.rowsRemote());
            out.writeLong(e.bytesRemote());
            out.writeLong(e.rowsLocal());
            out.writeLong(e.bytesLocal());
            out.writeInt(e.bucketRows().length);
            for (final long rows : e.bucketRows()) {
                out.writeLong(rows);
            }
            out.writeLong(e.blocksSentStored());
            out.writeLong(e.bytesSentStored());
        }
        out.writeInt(s.runtimeFilters().size());
        for (final RuntimeFilterStats f : s.runtimeFilters()) {
            out.writeInt(f.id());
            writeStrings(f.build());
            writeStrings(f.probe());
            final List<String> kinds = new ArrayList<>();
            for (final FilterKind k : f.kinds()) {
                kinds.add(k.label());
            }
            writeStrings(kinds);
            out.writeString(f.scope().label());
            out.writeLong(f.buildRows());
            out.writeLong(f.probeRowsIn());
            out.writeLong(f.probeRowsOut());
            out.writeLong(f.blocksSkipped());
            out.writeLong(f.waitMillis());
            out.writeString(f.state().label());
        }
        out.writeLong(s.sorts().mergedRows());
        out.writeLong(s.sorts().mergedRuns());
        out.writeLong(s.sorts().fullSorts());
        out.writeInt(s.pipelines().size());
        for (final PipelineCounters p : s.pipelines()) {
            out.writeInt(p.steps());
            for (int step = 0; step < p.steps(); step++) {
                out.writeLong(p.rows(step));
                out.writeLong(p.nanos(step));
            }
        }
        out.writeInt(s.memory().size());
        for (final QueryStats.OperatorMemory m : s.memory()) {
            out.writeString(m.operator());
            out.writeLong(m.peakBytes());
            out.writeLong(m.spilledBytes());
        }
        final StorageReads storage = s.storage();
        out.writeBoolean(storage != null);
        if (storage != null) {
            out.writeLong(storage.objectGets());
            out.writeLong(storage.objectBytes());
            out.writeLong(storage.cacheHits());
            out.writeLong(storage.cacheBytes());
        }
    }

    /**
     * Decodes the message that occupies exactly {@code [offset, offset + length)} of a buffer.
     *
     * @throws WireFormatException      for bytes that are not a control message of this version, naming the field
     * @throws ControlVersionException  for a message of another protocol version
     */
    public ControlMessage decode(final DirectBuffer buffer, final int offset, final int length) {
        in.wrap(buffer, offset, length);
        final int magic = in.readInt("message.magic");
        if (magic != MAGIC) {
            throw in.error("message.magic", 0, String.format("found 0x%08x, expected 0x%08x (\"SLCC\"): not a Sluice"
                    + " control message (is another application sending to this port?)", magic, MAGIC));
        }
        final short version = in.readShort("message.version");
        final short type = in.readShort("message.type");
        if (version != VERSION) {
            if (type == REJECT) {
                return readReject();
            }
            final StreamAddress replyTo = startsWithReplyAddress(type) ? tryReadAddress() : null;
            throw new ControlVersionException(version, replyTo);
        }
        if (length < HEADER_LENGTH + TRAILER_LENGTH) {
            throw in.error("message.trailer", HEADER_LENGTH, length + " bytes: a control message of version " + VERSION
                    + " has at least " + (HEADER_LENGTH + TRAILER_LENGTH) + " (header and trailer)");
        }
        in.wrap(buffer, offset, length - TRAILER_LENGTH);
        in.readLong("message.header");
        final ControlMessage message = readBody(type);
        in.expectEnd("message");
        return message;
    }

    /** Decodes a whole byte array as one message. */
    public ControlMessage decode(final byte[] bytes) {
        return decode(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    /** The types whose first field is the sender's reply address in every version. */
    private static boolean startsWithReplyAddress(final short type) {
        return type == REGISTER || type == QUERY_REQUEST || type == STATUS_REQUEST || type == HELLO
                || type == CANCEL_REQUEST || type == CLIENT_HEARTBEAT;
    }

    /** The sender's incarnation in the trailer of a message of at least the header and trailer. */
    public static long senderIncarnation(final DirectBuffer buffer, final int offset, final int length) {
        return buffer.getLong(offset + length - SENDER_FROM_END, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** The receiver's incarnation in the trailer (0: the sender did not know it yet). */
    public static long receiverIncarnation(final DirectBuffer buffer, final int offset, final int length) {
        return buffer.getLong(offset + length - RECEIVER_FROM_END, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** The sequence number in the trailer. */
    public static long sequence(final DirectBuffer buffer, final int offset, final int length) {
        return buffer.getLong(offset + length - SEQUENCE_FROM_END, java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    private StreamAddress tryReadAddress() {
        try {
            return readAddress("replyTo");
        } catch (final WireFormatException e) {
            return null;
        }
    }

    /** A Reject of another version: its reason, whatever follows it. */
    private Reject readReject() {
        return new Reject(in.readString("reject.reason"));
    }

    /** A UDP port: 0 to 65535. */
    private int readPort(final String field) {
        final int at = in.position();
        final int port = in.readInt(field);
        if (port < 0 || port > 65535) {
            throw in.error(field, at, port + " is not a UDP port (0 to 65535)");
        }
        return port;
    }

    private ControlMessage readBody(final short type) {
        final int at = in.position();
        switch (type) {
            case HELLO:
                return new Hello(readAddress("hello.replyTo"), in.readLong("hello.incarnation"),
                        readPort("hello.doorbell"));
            case CHALLENGE:
                return new Challenge(in.readLong("challenge.coordinatorIncarnation"), readPort("challenge.doorbell"));
            case CANCEL_REQUEST:
                return new CancelRequest(readAddress("cancelRequest.replyTo"), in.readLong("cancelRequest.requestId"),
                        in.readString("cancelRequest.reason"));
            case CLIENT_HEARTBEAT:
                return new ClientHeartbeat(readAddress("clientHeartbeat.replyTo"));
            case REGISTER: {
                final StreamAddress replyTo = readAddress("register.replyTo");
                final String name = in.readString("register.name");
                final int cores = in.readInt("register.cores");
                final StreamAddress data = readAddress("register.data");
                final long pid = in.readLong("register.pid");
                final long incarnation = in.readLong("register.incarnation");
                final String build = in.readString("register.build");
                return new Register(replyTo, name, cores, data, pid, incarnation, build, readPort("register.doorbell"));
            }
            case ACCEPT:
                return new Accept(in.readLong("accept.memberId"), in.readLong("accept.epoch"),
                        in.readInt("accept.position"), in.readInt("accept.memberCount"),
                        in.readLong("accept.coordinatorIncarnation"), readAddress("accept.results"));
            case REJECT:
                return new Reject(in.readString("reject.reason"));
            case CN_HEARTBEAT:
                return new CnHeartbeat(in.readLong("cnHeartbeat.memberId"), in.readLong("cnHeartbeat.incarnation"),
                        in.readInt("cnHeartbeat.activeQueries"), in.readLong("cnHeartbeat.rssBytes"),
                        in.readLong("cnHeartbeat.rejectedMessages"), in.readLong("cnHeartbeat.retransmits"));
            case COORDINATOR_HEARTBEAT:
                return new CoordinatorHeartbeat(in.readLong("coordinatorHeartbeat.incarnation"),
                        in.readLong("coordinatorHeartbeat.epoch"), in.readInt("coordinatorHeartbeat.memberCount"));
            case LEAVE:
                return new Leave(in.readLong("leave.memberId"), in.readLong("leave.incarnation"));
            case SHUTDOWN:
                return new Shutdown(in.readLong("shutdown.incarnation"), in.readString("shutdown.reason"));
            case EVICTED:
                return new Evicted(in.readLong("evicted.incarnation"), in.readString("evicted.reason"));
            case PREPARE: {
                final long queryId = in.readLong("prepare.queryId");
                final String name = in.readString("prepare.name");
                final int index = in.readInt("prepare.index");
                final int cnCount = in.readInt("prepare.cnCount");
                final int cores = in.readInt("prepare.cores");
                final int n = in.readCount("prepare.data", MIN_ADDRESS + 8);
                final List<StreamAddress> data = new ArrayList<>(n);
                final List<Long> incarnations = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    data.add(readAddress("prepare.data[" + i + "]"));
                    incarnations.add(in.readLong("prepare.incarnations[" + i + "]"));
                }
                final byte[] plan = in.readBytes("prepare.plan");
                final boolean explain = in.readBoolean("prepare.explain");
                final List<CachedBlocks> caches = readCaches("prepare.caches");
                if (n != cnCount || index < 0 || index >= cnCount) {
                    throw in.error("prepare", at, "CN " + index + " of " + cnCount + " with " + n
                            + " data addresses: a query names every CN's address and this CN's index among them");
                }
                return build("prepare", at, () -> new Prepare(queryId, name, index, cnCount, cores, data, incarnations,
                        plan, explain, caches));
            }
            case PREPARED:
                return new Prepared(in.readLong("prepared.queryId"), in.readLong("prepared.memberId"),
                        in.readInt("prepared.index"));
            case START:
                return new Start(in.readLong("start.queryId"));
            case CANCEL:
                return new Cancel(in.readLong("cancel.queryId"), in.readString("cancel.reason"));
            case FINISHED: {
                final long queryId = in.readLong("finished.queryId");
                final long memberId = in.readLong("finished.memberId");
                final int index = in.readInt("finished.index");
                final QueryStats stats = readStats("finished.stats");
                final long rss = in.readLong("finished.rssBytes");
                final RowType resultType = readNullableRowType("finished.resultType");
                final List<Decision> decisions = readDecisions("finished.decisions");
                final String explain = readNullableString("finished.explain");
                final List<CachedBlocks> caches = readCaches("finished.caches");
                return new Finished(queryId, memberId, index, stats, rss, resultType, decisions, explain, caches);
            }
            case FAILED:
                return new Failed(in.readLong("failed.queryId"), in.readLong("failed.memberId"),
                        in.readInt("failed.index"), in.readString("failed.errorType"), in.readString("failed.message"),
                        in.readBoolean("failed.secondary"));
            case FILTER_PARTIALS:
                return new FilterPartials(in.readLong("filterPartials.queryId"), in.readLong("filterPartials.memberId"),
                        in.readInt("filterPartials.index"), in.readInt("filterPartials.filterId"),
                        in.readBoolean("filterPartials.merge"), in.readBytes("filterPartials.partials"));
            case FILTER_READY:
                return new FilterReady(in.readLong("filterReady.queryId"), in.readInt("filterReady.filterId"),
                        in.readBytes("filterReady.partials"));
            case RESULT_BATCH:
                return new ResultBatch(in.readLong("resultBatch.queryId"), in.readInt("resultBatch.sequence"),
                        in.readBytes("resultBatch.block"));
            case RESULT_END:
                return new ResultEnd(in.readLong("resultEnd.queryId"), in.readInt("resultEnd.batches"),
                        in.readLong("resultEnd.rows"));
            case QUERY_REQUEST: {
                final StreamAddress replyTo = readAddress("queryRequest.replyTo");
                final long requestId = in.readLong("queryRequest.requestId");
                final String name = in.readString("queryRequest.name");
                final int cnCount = in.readInt("queryRequest.cnCount");
                final int cores = in.readInt("queryRequest.cores");
                final byte[] plan = in.readBytes("queryRequest.plan");
                final long timeoutMillis = in.readLong("queryRequest.timeoutMillis");
                if (timeoutMillis < 0) {
                    throw in.error("queryRequest.timeoutMillis", in.position() - 8, "a timeout of " + timeoutMillis
                            + " ms: 0 (none) or more");
                }
                final boolean explain = in.readBoolean("queryRequest.explain");
                return new QueryRequest(replyTo, requestId, name, cnCount, cores, plan, timeoutMillis, explain);
            }
            case QUERY_ACCEPTED: {
                final long requestId = in.readLong("queryAccepted.requestId");
                final long queryId = in.readLong("queryAccepted.queryId");
                final int cnCount = in.readInt("queryAccepted.cnCount");
                final int cores = in.readInt("queryAccepted.cores");
                return new QueryAccepted(requestId, queryId, cnCount, cores, readStrings("queryAccepted.members"));
            }
            case QUERY_PROGRESS:
                return new QueryProgress(in.readLong("queryProgress.requestId"), in.readLong("queryProgress.queryId"),
                        in.readLong("queryProgress.elapsedMillis"));
            case QUERY_DONE: {
                final long requestId = in.readLong("queryDone.requestId");
                final long queryId = in.readLong("queryDone.queryId");
                final QueryStats stats = readStats("queryDone.stats");
                final RowType resultType = readNullableRowType("queryDone.resultType");
                final int columnsAt = in.position();
                final List<String> columns = readStrings("queryDone.columns");
                final List<Decision> decisions = readDecisions("queryDone.decisions");
                final String explain = readNullableString("queryDone.explain");
                final int n = in.readCount("queryDone.usage", MIN_STRING + 8);
                final List<CnUsage> usage = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    usage.add(new CnUsage(in.readString("queryDone.usage[" + i + "].name"),
                            in.readLong("queryDone.usage[" + i + "].rssBytes")));
                }
                return build("queryDone.columns", columnsAt,
                        () -> new QueryDone(requestId, queryId, stats, resultType, columns, decisions, explain, usage));
            }
            case QUERY_FAILED:
                return new QueryFailed(in.readLong("queryFailed.requestId"), in.readLong("queryFailed.queryId"),
                        in.readString("queryFailed.errorType"), in.readString("queryFailed.message"));
            case STATUS_REQUEST:
                return new StatusRequest(readAddress("statusRequest.replyTo"), in.readLong("statusRequest.requestId"));
            case STATUS: {
                final long requestId = in.readLong("status.requestId");
                final long incarnation = in.readLong("status.incarnation");
                final long epoch = in.readLong("status.epoch");
                final int n = in.readCount("status.members", MIN_STRING * 2 + 8 + 4 + 1 + 8 + 4 + 8 + 16 + 8 + 1);
                final List<MemberStatus> members = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    final String p = "status.members[" + i + "]";
                    members.add(new MemberStatus(in.readString(p + ".name"), in.readLong(p + ".memberId"),
                            in.readString(p + ".endpoint"), in.readInt(p + ".cores"), STATES.read(in, p + ".state"),
                            in.readLong(p + ".sinceHeardMillis"), in.readInt(p + ".activeQueries"),
                            in.readLong(p + ".rssBytes"), in.readLong(p + ".rejectedMessages"),
                            in.readLong(p + ".retransmits"), in.readLong(p + ".pid"),
                            in.readBoolean(p + ".launched")));
                }
                return new Status(requestId, incarnation, epoch, members, in.readLong("status.rejectedMessages"),
                        in.readInt("status.runningQueries"), in.readInt("status.queuedQueries"));
            }
            default:
                throw in.error("message.type", 6, "unknown control message type " + type);
        }
    }

    private StreamAddress readAddress(final String field) {
        final int at = in.position();
        final String channel = in.readString(field + ".channel");
        final int stream = in.readInt(field + ".stream");
        return build(field, at, () -> new StreamAddress(channel, stream));
    }

    private List<String> readStrings(final String field) {
        final int n = in.readCount(field, MIN_STRING);
        final List<String> strings = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            strings.add(in.readString(field + "[" + i + "]"));
        }
        return strings;
    }

    private String readNullableString(final String field) {
        return in.readBoolean(field + ".present") ? in.readString(field) : null;
    }

    private RowType readNullableRowType(final String field) {
        return in.readBoolean(field + ".present") ? PlanCodec.readRowType(in, field) : null;
    }

    private List<CachedBlocks> readCaches(final String field) {
        final int n = in.readCount(field, 4 + MIN_STRING + 4);
        final List<CachedBlocks> caches = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            final String p = field + "[" + i + "]";
            final int at = in.position();
            final int index = in.readInt(p + ".index");
            final String table = in.readString(p + ".table");
            final int blocksAt = in.position();
            final byte[] bytes = in.readBytes(p + ".blocks");
            final RoaringBitmap blocks = new RoaringBitmap();
            try {
                blocks.deserialize(ByteBuffer.wrap(bytes));
            } catch (final IOException | RuntimeException e) {
                throw in.error(p + ".blocks", blocksAt, "not a serialized RoaringBitmap: " + e, e);
            }
            if (blocks.serializedSizeInBytes() != bytes.length) {
                throw in.error(p + ".blocks", blocksAt, bytes.length + " bytes hold a bitmap of "
                        + blocks.serializedSizeInBytes() + ": bytes left after it");
            }
            caches.add(build(p, at, () -> new CachedBlocks(index, table, blocks)));
        }
        return caches;
    }

    private List<Decision> readDecisions(final String field) {
        final int n = in.readCount(field, MIN_STRING * 2 + 1);
        final List<Decision> decisions = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            final String p = field + "[" + i + "]";
            decisions.add(new Decision(in.readString(p + ".operator"), DISTRIBUTIONS.read(in, p + ".choice"),
                    in.readString(p + ".reason")));
        }
        return decisions;
    }

    private QueryStats readStats(final String field) {
        final int at = in.position();
        final String query = in.readString(field + ".query");
        final String strategy = in.readString(field + ".strategy");
        final int cnCount = in.readInt(field + ".topology.cnCount");
        final int cores = in.readInt(field + ".topology.coresPerCn");
        final Topology topology = build(field + ".topology", at, () -> new Topology(cnCount, cores));
        final long wallMillis = in.readLong(field + ".wallMillis");
        final long whole = in.readLong(field + ".wholeBlockRoutes");
        final long split = in.readLong(field + ".splitBatches");
        final int n = in.readCount(field + ".exchanges", 4 + MIN_STRING * 2 + 6 * 8 + 4);
        final List<QueryStats.ExchangeStats> exchanges = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            final String p = field + ".exchanges[" + i + "]";
            final int id = in.readInt(p + ".id");
            final String mode = in.readString(p + ".mode");
            final List<String> keys = readStrings(p + ".keys");
            final long rowsRemote = in.readLong(p + ".rowsRemote");
            final long bytesRemote = in.readLong(p + ".bytesRemote");
            final long rowsLocal = in.readLong(p + ".rowsLocal");
            final long bytesLocal = in.readLong(p + ".bytesLocal");
            final int buckets = in.readCount(p + ".bucketRows", 8);
            final long[] bucketRows = new long[buckets];
            for (int b = 0; b < buckets; b++) {
                bucketRows[b] = in.readLong(p + ".bucketRows[" + b + "]");
            }
            final long blocksStored = in.readLong(p + ".blocksSentStored");
            final long bytesStored = in.readLong(p + ".bytesSentStored");
            exchanges.add(new QueryStats.ExchangeStats(id, mode, keys, rowsRemote, bytesRemote, rowsLocal, bytesLocal,
                    bucketRows, blocksStored, bytesStored));
        }
        final int f = in.readCount(field + ".runtimeFilters", 4 + 4 * 3 + MIN_STRING * 2 + 5 * 8);
        final List<RuntimeFilterStats> filters = new ArrayList<>(f);
        for (int i = 0; i < f; i++) {
            final String p = field + ".runtimeFilters[" + i + "]";
            final int filterAt = in.position();
            final int id = in.readInt(p + ".id");
            final List<String> build = readStrings(p + ".build");
            final List<String> probe = readStrings(p + ".probe");
            final List<String> kindLabels = readStrings(p + ".kinds");
            final String scopeLabel = in.readString(p + ".scope");
            final long buildRows = in.readLong(p + ".buildRows");
            final long rowsIn = in.readLong(p + ".probeRowsIn");
            final long rowsOut = in.readLong(p + ".probeRowsOut");
            final long skipped = in.readLong(p + ".blocksSkipped");
            final long waitMillis = in.readLong(p + ".waitMillis");
            final String stateLabel = in.readString(p + ".state");
            filters.add(build(p, filterAt, () -> {
                final List<FilterKind> kinds = new ArrayList<>();
                for (final String k : kindLabels) {
                    kinds.add(FilterKind.valueOf(k.toUpperCase(java.util.Locale.ROOT).replace('-', '_')));
                }
                return new RuntimeFilterStats(id, build, probe, kinds,
                        FilterScope.valueOf(scopeLabel.toUpperCase(java.util.Locale.ROOT).replace('-', '_')), buildRows,
                        rowsIn, rowsOut, skipped, waitMillis, RuntimeFilterState.ofLabel(stateLabel));
            }));
        }
        final long mergedRows = in.readLong(field + ".sorts.mergedRows");
        final long mergedRuns = in.readLong(field + ".sorts.mergedRuns");
        final long fullSorts = in.readLong(field + ".sorts.fullSorts");
        final int pipelineCount = in.readCount(field + ".pipelines", 4 + 2 * 2 * 8);
        final List<PipelineCounters> pipelines = new ArrayList<>(pipelineCount);
        for (int i = 0; i < pipelineCount; i++) {
            final String p = field + ".pipelines[" + i + "]";
            final int pipelineAt = in.position();
            final int steps = in.readCount(p + ".steps", 2 * 8);
            final long[] rows = new long[steps];
            final long[] nanos = new long[steps];
            for (int step = 0; step < steps; step++) {
                rows[step] = in.readLong(p + ".rows[" + step + "]");
                nanos[step] = in.readLong(p + ".nanos[" + step + "]");
            }
            pipelines.add(build(p, pipelineAt, () -> new PipelineCounters(rows, nanos)));
        }
        final int operators = in.readCount(field + ".memory", MIN_STRING + 2 * 8);
        final List<QueryStats.OperatorMemory> memory = new ArrayList<>(operators);
        for (int i = 0; i < operators; i++) {
            final String p = field + ".memory[" + i + "]";
            memory.add(new QueryStats.OperatorMemory(in.readString(p + ".operator"), in.readLong(p + ".peakBytes"),
                    in.readLong(p + ".spilledBytes")));
        }
        StorageReads storage = null;
        final int storageAt = in.position();
        if (in.readBoolean(field + ".storage.present")) {
            final long gets = in.readLong(field + ".storage.objectGets");
            final long bytes = in.readLong(field + ".storage.objectBytes");
            final long hits = in.readLong(field + ".storage.cacheHits");
            final long hitBytes = in.readLong(field + ".storage.cacheBytes");
            storage = build(field + ".storage", storageAt, () -> new StorageReads(gets, bytes, hits, hitBytes));
        }
        return new QueryStats(query, strategy, topology, wallMillis, whole, split, exchanges, filters,
                new QueryStats.SortStats(mergedRows, mergedRuns, fullSorts), pipelines, memory, storage);
    }

    /** Builds a record, turning a rule it refuses into a WireFormatException naming the field. */
    private <T> T build(final String field, final int at, final Supplier<T> constructor) {
        try {
            return constructor.get();
        } catch (final IllegalArgumentException e) {
            throw in.error(field, at, e.getMessage(), e);
        }
    }
}
