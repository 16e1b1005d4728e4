package io.sluice.dispatch.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.sluice.dispatch.control.ControlMessage.FilterPartials;
import io.sluice.dispatch.control.ControlMessage.FilterReady;
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
import io.sluice.dispatch.control.ControlMessage.ResultBatch;
import io.sluice.dispatch.control.ControlMessage.ResultEnd;
import io.sluice.dispatch.control.ControlMessage.Shutdown;
import io.sluice.dispatch.control.ControlMessage.Start;
import io.sluice.dispatch.control.ControlMessage.Status;
import io.sluice.dispatch.control.ControlMessage.StatusRequest;
import io.sluice.engine.expr.DataType;
import io.sluice.engine.expr.RowType;
import io.sluice.engine.exec.RuntimeFilterState;
import io.sluice.engine.exec.PipelineCounters;
import io.sluice.engine.exec.RuntimeFilterStats;
import io.sluice.engine.filter.FilterKind;
import io.sluice.engine.filter.FilterPartial;
import io.sluice.engine.filter.RuntimeFilterCodec;
import io.sluice.engine.filter.FilterScope;
import io.sluice.engine.plan.Decision;
import io.sluice.engine.plan.Distribution;
import io.sluice.engine.wire.WireFormatException;
import io.sluice.shuffle.Topology;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * Every control message survives encode and decode unchanged (re-encoding gives the same bytes); a
 * truncated, corrupted or random message is a {@link WireFormatException} naming the field, never
 * another exception; a message of another version names both versions and keeps the reply address
 * so the receiver can refuse it, and a Reject decodes in any version.
 */
class ControlCodecTest {
    private static final StreamAddress ADDRESS = new StreamAddress("aeron:udp?endpoint=10.0.0.7:40123", 10);
    private static final StreamAddress DATA = new StreamAddress("aeron:udp?endpoint=10.0.0.7:40123", 11);
    private static final RowType RESULT = new RowType(List.of("k", "sum", "avg", "d", "s", "b", "i"),
            List.of(DataType.INT64, DataType.decimal(4), DataType.DOUBLE, DataType.DATE, DataType.STRING,
                    DataType.BOOLEAN, DataType.INT32));
    private static final QueryStats STATS = new QueryStats("q18", "colocate", new Topology(3, 2), 123, 40, 2,
            List.of(new QueryStats.ExchangeStats(0, "TO_OWNER", List.of("l_orderkey"), 10, 1000, 20, 2000,
                    new long[] {1, 2, 3, 4, 5, 6}), new QueryStats.ExchangeStats(1, "GATHER", List.of(), 0, 0, 5, 50,
                    new long[] {5, 0, 0, 0, 0, 0})),
            List.of(new RuntimeFilterStats(0, List.of("o_orderkey"), List.of("l_orderkey"),
                    List.of(FilterKind.MIN_MAX, FilterKind.BITMAP), FilterScope.PER_BUCKET, 1500, 6000, 300, 7, 2,
                    RuntimeFilterState.APPLIED)), new QueryStats.SortStats(600_572, 6, 1),
            List.of(new PipelineCounters(new long[] {600_572, 300, 300}, new long[] {70, 8, 9}),
                    new PipelineCounters(new long[] {5, 5}, new long[] {1, 2})),
            List.of(new QueryStats.OperatorMemory("hash join build [o_orderkey]", 65_536, 1_234_567),
                    new QueryStats.OperatorMemory("group by [l_orderkey]", 4096, 0)), null);
    /** The stats of a CN that read a store on object storage. */
    private static final StorageReads READS = new StorageReads(74, 71_251_480, 3, 2_900_000);
    private static final QueryStats STATS_READ = new QueryStats(STATS.query(), STATS.strategy(), STATS.topology(),
            STATS.wallMillis(), STATS.wholeBlockRoutes(), STATS.splitBatches(), STATS.exchanges(),
            STATS.runtimeFilters(), STATS.sorts(), STATS.pipelines(), STATS.memory(), READS);
    private static final List<Decision> DECISIONS = List.of(
            new Decision("join [l_orderkey] = [o_orderkey]", Distribution.COLOCATE, "build side ~150000 rows"),
            new Decision("group by [k]", Distribution.REUSE_SHUFFLE, "the join's shuffle"));

    /** What CN 0 and CN 2 cache: a run of blocks and a few apart, and one block of another table. */
    private static final List<CachedBlocks> CACHES = List.of(
            new CachedBlocks(0, "lineitem", RoaringBitmap.bitmapOf(0, 1, 2, 3, 70_000)),
            new CachedBlocks(2, "orders", RoaringBitmap.bitmapOf(5)));

    /** Two buckets' partial runtime filters of an integer key in their wire form, one bucket without any. */
    private static byte[] partials() {
        final FilterPartial p = FilterPartial.integerKey(1024);
        p.addValues(new long[] {3, 17, 4_000_000}, 3);
        return RuntimeFilterCodec.encode(new FilterPartial[] {p, null});
    }

    /** One message of every type, with every optional field both set and not set somewhere. */
    static List<ControlMessage> everyMessage() {
        return List.of(
                new Register(ADDRESS, "cn-1", 4, DATA, 4242, -7, "0.1.0", 40123),
                new Accept(3, 9, 2, 3, 77, new StreamAddress("aeron:udp?endpoint=10.0.0.1:7400", 12)),
                new Reject("a CN named 'cn-1' is already a member"),
                new CnHeartbeat(3, -7, 1, 512L << 20, 12, 3),
                new CoordinatorHeartbeat(77, 9, 3),
                new Leave(3, -7),
                new Shutdown(77, "the coordinator stopped"),
                new Prepare(1L << 40, "q18", 1, 3, 2, List.of(ADDRESS, DATA, new StreamAddress("aeron:ipc", 2001)),
                        List.of(11L, -12L, Long.MAX_VALUE), new byte[] {1, 2, 3}, true, CACHES),
                new Prepared(1L << 40, 3, 1),
                new Start(1L << 40),
                new Cancel(1L << 40, "CN cn-2 died"),
                new Finished(5, 3, 0, STATS, 1L << 30, RESULT, DECISIONS, "Distributed plan of q18", CACHES),
                new Finished(5, 4, 1, STATS_READ, -1, null, List.of(), null, List.of()),
                new Failed(5, 3, 1, "ArithmeticException", "long overflow", false),
                new Failed(5, 4, 2, "SenderFailedException", "heard an error from CN 1", true),
                new ResultBatch(5, 0, new byte[] {9, 8, 7, 6}),
                new ResultEnd(5, 1, 4096),
                new FilterPartials(5, 3, 1, 2, true, partials()),
                new FilterPartials(5, 4, 2, 0, false, new byte[0]),
                new FilterReady(5, 2, partials()),
                new FilterReady(5, 0, new byte[0]),
                new QueryRequest(ADDRESS, 11, "join_lo", 0, 0, new byte[] {5}, 0, false),
                new QueryRequest(ADDRESS, 13, "q1", 2, 1, new byte[] {5, 6}, 30_000, true),
                new QueryAccepted(11, 5, 3, 2, List.of("cn-0", "cn-1", "cn-2")),
                new QueryProgress(11, 5, 250),
                new QueryDone(11, 5, STATS, RESULT, List.of("k", "k", "avg", "d", "s", "b", "i"), DECISIONS, "plan",
                        List.of(new CnUsage("cn-0", 1L << 29))),
                new QueryDone(11, 5, STATS_READ, null, List.of(), List.of(), null, List.of()),
                new QueryFailed(11, 5, "IllegalArgumentException", "asks for 5 CNs but 3 are alive"),
                new StatusRequest(ADDRESS, 12),
                new Status(12, 77, 9, List.of(new MemberStatus("cn-0", 1, "10.0.0.7:40123", 2, MemberState.SUSPECT,
                        1500, 0, 100, 0, 0, 4242, true), new MemberStatus("cn-1", 2, "10.0.0.8:40000", 4,
                        MemberState.ALIVE, 10, 1, -1, 250, 17, 99, false)), 10_000, 4, 2),
                new Hello(ADDRESS, -7, 7401),
                new Challenge(77, 40124),
                new CancelRequest(ADDRESS, 11, "interrupted (CTRL-C)"),
                new ClientHeartbeat(ADDRESS),
                new Prepare(1L << 40, "q18", 0, 1, 2, List.of(ADDRESS), List.of(11L), new byte[] {1, 2, 3}, false,
                        List.of()),
                new Evicted(77, "CN cn-1 died or stalled: no heartbeat for 4561 ms"));
    }

    @Test
    void everyMessageTypeRoundTripsToTheSameBytes() {
        final ControlCodec codec = new ControlCodec();
        final Set<Class<?>> covered = new HashSet<>();
        for (final ControlMessage m : everyMessage()) {
            final byte[] bytes = codec.toBytes(m);
            final ControlMessage decoded = codec.decode(bytes);
            assertThat(decoded).as("%s", m).isInstanceOf(m.getClass());
            assertThat(codec.toBytes(decoded)).as("re-encoded %s", m).isEqualTo(bytes);
            covered.add(m.getClass());
        }
        assertThat(covered).as("message types covered")
                .containsExactlyInAnyOrder(ControlMessage.class.getPermittedSubclasses());
        final Finished f = (Finished) codec.decode(codec.toBytes(everyMessage().get(11)));
        assertThat(f.resultType()).isEqualTo(RESULT);
        assertThat(f.decisions()).isEqualTo(DECISIONS);
        assertThat(f.stats().exchanges().get(0).bucketRows()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(f.stats().topology()).isEqualTo(new Topology(3, 2));
        assertThat(f.stats().memory()).isEqualTo(STATS.memory());
    }

    @Test
    void aRequestAndAPrepareSayWhetherTheClientAskedForTheExplain() {
        final ControlCodec codec = new ControlCodec();
        for (final boolean explain : new boolean[] {true, false}) {
            final QueryRequest request = new QueryRequest(ADDRESS, 13, "q1", 2, 1, new byte[] {5}, 0, explain);
            assertThat(((QueryRequest) codec.decode(codec.toBytes(request))).explain()).isEqualTo(explain);
            final Prepare prepare = new Prepare(1, "q1", 0, 1, 2, List.of(ADDRESS), List.of(11L), new byte[] {1},
                    explain, List.of());
            assertThat(((Prepare) codec.decode(codec.toBytes(prepare))).explain()).isEqualTo(explain);
        }
    }

    @Test
    void aCnsFinishedStatsAndTheQuerysCarryWhatWasReadOfObjectStorageOrSayNothingWasRead() {
        final ControlCodec codec = new ControlCodec();
        final Finished read = (Finished) codec.decode(codec.toBytes(new Finished(5, 4, 1, STATS_READ, -1, null,
                List.of(), null, List.of())));
        assertThat(read.stats().storage()).isEqualTo(new StorageReads(74, 71_251_480, 3, 2_900_000));
        final Finished none = (Finished) codec.decode(codec.toBytes(new Finished(5, 4, 1, STATS, -1, null,
                List.of(), null, List.of())));
        assertThat(none.stats().storage()).isNull();
        final QueryDone done = (QueryDone) codec.decode(codec.toBytes(new QueryDone(11, 5, STATS_READ, null,
                List.of(), List.of(), null, List.of())));
        assertThat(done.stats().storage()).isEqualTo(new StorageReads(74, 71_251_480, 3, 2_900_000));
    }

    @Test
    void negativeStorageReadsAreAWireFormatErrorNamingTheField() {
        final ControlCodec codec = new ControlCodec();
        final byte[] bytes = codec.toBytes(new Finished(5, 4, 1, STATS_READ, -1, null, List.of(), null, List.of()));
        // The last fields before the trailer: the stats' storage reads, then the message's own nullable fields.
        final int at = indexOfLong(bytes, 71_251_480);
        new UnsafeBuffer(bytes).putLong(at, -1, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("finished.stats.storage");
    }

    private static int indexOfLong(final byte[] bytes, final long value) {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        for (int i = 0; i + 8 <= bytes.length; i++) {
            if (buffer.getLong(i, ByteOrder.LITTLE_ENDIAN) == value) {
                return i;
            }
        }
        throw new AssertionError(value + " not in the message");
    }

    @Test
    void aQueryDoneCarriesSqlsColumnNamesWhichTwoColumnsMayShare() {
        final ControlCodec codec = new ControlCodec();
        final RowType unique = new RowType(List.of("x", "x0"), List.of(DataType.INT64, DataType.STRING));
        final QueryDone done = (QueryDone) codec.decode(codec.toBytes(new QueryDone(11, 5, STATS, unique,
                List.of("x", "x"), List.of(), null, List.of())));
        assertThat(done.resultType().names()).containsExactly("x", "x0");
        assertThat(done.columns()).containsExactly("x", "x");
    }

    @Test
    void aQueryDoneNeedsOneNamePerColumnOfItsResult() {
        final RowType one = new RowType(List.of("x"), List.of(DataType.INT64));
        assertThatThrownBy(() -> new QueryDone(11, 5, STATS, one, List.of("x", "y"), List.of(), null, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("2 column names for a result of 1 columns [x]");
        assertThatThrownBy(() -> new QueryDone(11, 5, STATS, null, List.of("x"), List.of(), null, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("1 column names for a result of no columns");
    }

    @Test
    void aQueryDoneOfProtocol10IsRefusedNamingBothVersions() {
        final ControlCodec codec = new ControlCodec();
        final byte[] done = codec.toBytes(new QueryDone(11, 5, STATS_READ, null, List.of(), List.of(), null,
                List.of()));
        new UnsafeBuffer(done).putShort(4, (short) 10, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(done)).isInstanceOf(ControlVersionException.class)
                .hasMessageContaining("control protocol version 10, this build speaks version 12")
                .hasMessageContaining("run the same Sluice version");
    }

    @Test
    void aFinishedOfProtocol9IsRefusedNamingBothVersions() {
        final ControlCodec codec = new ControlCodec();
        final byte[] finished = codec.toBytes(new Finished(5, 4, 1, STATS_READ, -1, null, List.of(), null, List.of()));
        new UnsafeBuffer(finished).putShort(4, (short) 9, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(finished)).isInstanceOf(ControlVersionException.class)
                .hasMessageContaining("control protocol version 9, this build speaks version 12")
                .hasMessageContaining("run the same Sluice version");
    }

    @Test
    void aFinishedCarriesWhatTheCnCachesAndAPrepareWhatEveryCnOfTheQueryCaches() {
        final ControlCodec codec = new ControlCodec();
        final Finished finished = (Finished) codec.decode(codec.toBytes(new Finished(5, 4, 1, STATS, -1, null,
                List.of(), null, CACHES)));
        assertThat(finished.caches()).isEqualTo(CACHES);
        final Prepare prepare = (Prepare) codec.decode(codec.toBytes(new Prepare(1, "q1", 1, 3, 2,
                List.of(ADDRESS, DATA, ADDRESS), List.of(11L, 12L, 13L), new byte[] {1}, false, CACHES)));
        assertThat(prepare.caches()).isEqualTo(CACHES);
        assertThat(prepare.caches().get(0).blocks().toArray()).containsExactly(0, 1, 2, 3, 70_000);
    }

    @Test
    void aPrepareNamingTheCacheOfACnNotInTheQueryIsAWireFormatErrorNamingTheField() {
        final ControlCodec codec = new ControlCodec();
        final byte[] bytes = codec.toBytes(new Prepare(1, "q1", 0, 3, 2, List.of(ADDRESS, DATA, ADDRESS),
                List.of(11L, 12L, 13L), new byte[] {1}, false, CACHES));
        // Only the second report names CN 2: make it CN 7 of a query of 3.
        final int at = indexOfString(bytes, "orders") - 8;
        assertThat(new UnsafeBuffer(bytes).getInt(at, ByteOrder.LITTLE_ENDIAN)).isEqualTo(2);
        new UnsafeBuffer(bytes).putInt(at, 7, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("prepare").hasMessageContaining("CN 7 of a query of 3 CNs");
    }

    @Test
    void aCachedBlocksBitmapThatIsNotOneIsAWireFormatErrorNamingTheField() {
        final ControlCodec codec = new ControlCodec();
        final byte[] bytes = codec.toBytes(new Finished(5, 4, 1, STATS, -1, null, List.of(), null,
                List.of(new CachedBlocks(1, "orders", RoaringBitmap.bitmapOf(5)))));
        // The bitmap's bytes follow the table name and their length: spoil its cookie.
        final int bitmap = indexOfString(bytes, "orders") + "orders".length() + 4;
        new UnsafeBuffer(bytes).putInt(bitmap, 0x7fff_fff0, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("finished.caches[0].blocks");
    }

    private static int indexOfString(final byte[] bytes, final String text) {
        final byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + utf8.length <= bytes.length; i++) {
            for (int j = 0; j < utf8.length; j++) {
                if (bytes[i + j] != utf8[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError(text + " not in the message");
    }

    @Test
    void aPrepareOfProtocol11IsRefusedNamingBothVersions() {
        final ControlCodec codec = new ControlCodec();
        final byte[] prepare = codec.toBytes(new Prepare(1, "q1", 0, 1, 2, List.of(ADDRESS), List.of(11L),
                new byte[] {1}, false, List.of()));
        new UnsafeBuffer(prepare).putShort(4, (short) 11, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(prepare)).isInstanceOf(ControlVersionException.class)
                .hasMessageContaining("control protocol version 11, this build speaks version 12")
                .hasMessageContaining("run the same Sluice version");
    }

    @Test
    void aPrepareOfProtocol8IsRefusedNamingBothVersions() {
        final ControlCodec codec = new ControlCodec();
        final byte[] prepare = codec.toBytes(new Prepare(1, "q1", 0, 1, 2, List.of(ADDRESS), List.of(11L),
                new byte[] {1}, false, List.of()));
        new UnsafeBuffer(prepare).putShort(4, (short) 8, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(prepare)).isInstanceOf(ControlVersionException.class)
                .hasMessageContaining("control protocol version 8, this build speaks version 12")
                .hasMessageContaining("run the same Sluice version");
    }

    @Test
    void everyTruncationIsAWireFormatErrorNamingAField() {
        final ControlCodec codec = new ControlCodec();
        for (final ControlMessage m : everyMessage()) {
            final byte[] bytes = codec.toBytes(m);
            for (int length = 0; length < bytes.length; length++) {
                final byte[] cut = Arrays.copyOf(bytes, length);
                assertThatThrownBy(() -> codec.decode(cut)).as("%s cut to %d of %d bytes", m.getClass().getSimpleName(),
                        length, bytes.length).isInstanceOf(WireFormatException.class).hasMessageContaining(" at byte ");
            }
        }
    }

    @Test
    void corruptedAndRandomMessagesDecodeOrFailCleanlyNeverOtherwise() {
        final ControlCodec codec = new ControlCodec();
        final SplittableRandom random = new SplittableRandom(20261201L);
        final List<ControlMessage> messages = everyMessage();
        int failures = 0;
        for (int i = 0; i < 20_000; i++) {
            final byte[] bytes;
            if (i % 5 == 0) {
                bytes = new byte[random.nextInt(0, 200)];
                random.nextBytes(bytes);
            } else {
                bytes = codec.toBytes(messages.get(random.nextInt(messages.size())));
                for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                    bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                }
            }
            try {
                final ControlMessage decoded = codec.decode(bytes);
                // What decodes is a message: it encodes and decodes again.
                assertThat(codec.decode(codec.toBytes(decoded))).isInstanceOf(decoded.getClass());
            } catch (final WireFormatException | ControlVersionException e) {
                failures++;
            }
        }
        assertThat(failures).as("damaged messages refused").isGreaterThan(5_000);
    }

    @Test
    void aHugeClaimedLengthFailsWithoutAllocatingIt() {
        final ControlCodec codec = new ControlCodec();
        final byte[] bytes = codec.toBytes(new Reject("x"));
        final UnsafeBuffer b = new UnsafeBuffer(bytes);
        b.putInt(ControlCodec.HEADER_LENGTH, Integer.MAX_VALUE, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("reject.reason").hasMessageContaining("2147483647");
    }

    @Test
    void anotherVersionIsNamedAndKeepsTheReplyAddressAndARejectDecodesInAnyVersion() {
        final ControlCodec codec = new ControlCodec();
        final byte[] register = codec.toBytes(everyMessage().get(0));
        new UnsafeBuffer(register).putShort(4, (short) 99, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(register)).isInstanceOf(ControlVersionException.class)
                .hasMessageContaining("version 99").hasMessageContaining("version " + ControlCodec.VERSION)
                .satisfies(e -> assertThat(((ControlVersionException) e).replyTo()).isEqualTo(ADDRESS));

        final byte[] heartbeat = codec.toBytes(new CoordinatorHeartbeat(1, 2, 3));
        new UnsafeBuffer(heartbeat).putShort(4, (short) 1, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(heartbeat)).isInstanceOf(ControlVersionException.class)
                .satisfies(e -> assertThat(((ControlVersionException) e).replyTo()).isNull());

        final byte[] reject = codec.toBytes(new Reject("run the same version"));
        new UnsafeBuffer(reject).putShort(4, (short) 7, ByteOrder.LITTLE_ENDIAN);
        assertThat(codec.decode(reject)).isEqualTo(new Reject("run the same version"));
    }

    @Test
    void aForeignMessageAndAnUnknownTypeAreNamed() {
        final ControlCodec codec = new ControlCodec();
        assertThatThrownBy(() -> codec.decode("GET / HTTP/1.1\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .isInstanceOf(WireFormatException.class).hasMessageContaining("not a Sluice control message");
        final byte[] bytes = codec.toBytes(new Start(1));
        new UnsafeBuffer(bytes).putShort(6, (short) 999, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(bytes)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("unknown control message type 999");
        final byte[] prepare = codec.toBytes(everyMessage().get(7));
        // The index is the fourth field: after the query id (8 bytes) and the name (4 + 3 bytes).
        new UnsafeBuffer(prepare).putInt(ControlCodec.HEADER_LENGTH + 8 + 4 + 3, 7, ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> codec.decode(prepare)).isInstanceOf(WireFormatException.class)
                .hasMessageContaining("CN 7 of 3");
    }
}
