package io.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.format.TypeKind;
import io.sluice.shuffle.HashBucketFunction;
import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.shuffle.operator.DispatchMode;
import io.sluice.shuffle.operator.ShuffleOperator;
import io.sluice.shuffle.operator.ShuffleOptions;
import io.sluice.transport.TransportContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A hash shuffle operator feeding each CN's dispatch, as a pipeline does: its pooled batches go to
 * local queues (the receiver releases them) or are encoded and released at once. The pool is small,
 * so a batch that is never released stalls the shuffle and fails the test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShuffleThenDispatchTest {
    private static final Topology TOPOLOGY = new Topology(3, 2);
    private EmbeddedCluster cluster;

    @BeforeAll
    void start() {
        cluster = EmbeddedCluster.ipc(3, new TransportContext().termLength(1024 * 1024),
                new DispatchContext().queueCapacity(8));
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Pull-drives a shuffle over the input into the sink; each output batch belongs to the sink once sent. */
    private static void shuffleInto(final List<Batch> input, final ExchangeSink sink) {
        final ShuffleOperator shuffle = new ShuffleOperator(TestBatches.SCHEMA, new int[] {0},
                new HashBucketFunction(TOPOLOGY.bucketCount(), TypeKind.INT64),
                ShuffleOptions.defaults().withPoolBytes(2 * ShuffleOperator.minimumPoolBytes(TestBatches.SCHEMA)));
        final IdleStrategy idle = new BackoffIdleStrategy();
        for (final Batch batch : input) {
            while (!shuffle.needsInput()) {
                final Batch out = shuffle.getOutput();
                if (out != null) {
                    sink.send(out);
                    idle.reset();
                } else {
                    idle.idle();
                }
            }
            shuffle.addInput(batch);
        }
        shuffle.finish();
        while (!shuffle.isFinished()) {
            final Batch out = shuffle.getOutput();
            if (out != null) {
                sink.send(out);
                idle.reset();
            } else {
                idle.idle();
            }
        }
    }

    private List<List<Long>> run(final Exchange exchange, final long seed) throws Exception {
        final HashBucketFunction function = new HashBucketFunction(TOPOLOGY.bucketCount(), TypeKind.INT64);
        try (ExchangeRun run = new ExchangeRun(cluster, exchange)) {
            final SplittableRandom random = new SplittableRandom(seed);
            final List<List<Long>> expected = new ArrayList<>();
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                expected.add(new ArrayList<>());
            }
            for (int cn = 0; cn < TOPOLOGY.cnCount(); cn++) {
                final List<Batch> input = TestBatches.random(cn, 40, 4000, 1, random.split());
                final List<Long> ids = new ArrayList<>();
                for (final Batch batch : input) {
                    TestBatches.collectIds(batch, ids);
                }
                for (final long id : ids) {
                    if (exchange.mode() == DispatchMode.BROADCAST) {
                        // One copy per CN, to its first core.
                        for (int c = 0; c < TOPOLOGY.cnCount(); c++) {
                            expected.get(TOPOLOGY.firstBucketOf(c)).add(id);
                        }
                    } else {
                        expected.get(function.bucket(id)).add(id);
                    }
                }
                // Untagged input: the shuffle operator sets shuffleIdx.
                final List<Batch> untagged = new ArrayList<>();
                for (final Batch batch : input) {
                    untagged.add(Batch.of(batch.column(0), batch.column(1)));
                }
                run.startSender(cn, 0, sink -> shuffleInto(untagged, sink));
            }
            run.receiveAll(120_000);
            for (int b = 0; b < TOPOLOGY.bucketCount(); b++) {
                final List<Long> actual = run.idsByBucket.get(b);
                Collections.sort(actual);
                Collections.sort(expected.get(b));
                assertThat(actual).as("bucket %d", b).isEqualTo(expected.get(b));
            }
            return expected;
        }
    }

    @Test
    void pooledShuffleOutputReachesItsOwnerAndGoesBackToThePool() throws Exception {
        run(Exchange.of(21, 1, TOPOLOGY, DispatchMode.TO_OWNER, TestBatches.SCHEMA, 1), 17);
    }

    @Test
    void pooledShuffleOutputBroadcastReachesOneCorePerCnAndGoesBackToThePool() throws Exception {
        run(Exchange.of(21, 2, TOPOLOGY, DispatchMode.BROADCAST, TestBatches.SCHEMA, 1), 18);
    }
}
