package io.sluice.dispatch;

import io.sluice.shuffle.Topology;
import io.sluice.shuffle.operator.Batch;
import io.sluice.transport.TransportContext;
import java.util.concurrent.atomic.AtomicReference;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Rough rows/s of one sender and one receiver through an exchange: local (in-process queue, no copy),
 * remote over aeron:ipc and over aeron:udp loopback (encode, frame, decode with checksums). Not a
 * test and not JMH: a quick look, run by hand with the test classpath. Arguments: batches (default 2000).
 */
public final class DispatchThroughputMain {
    private DispatchThroughputMain() {
    }

    public static void main(final String[] args) throws Exception {
        final int batches = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        final long[] ids = new long[8192];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i;
        }
        final TransportContext transport = new TransportContext();
        for (int round = 0; round < 2; round++) {
            codecOnly(batches, ids, round);
            try (EmbeddedCluster one = EmbeddedCluster.ipc(1, transport, new DispatchContext())) {
                report("local", one, 0, batches, ids, round);
            }
            try (EmbeddedCluster ipc = EmbeddedCluster.ipc(2, transport, new DispatchContext())) {
                report("remote ipc", ipc, 1, batches, ids, round);
            }
            try (EmbeddedCluster udp = EmbeddedCluster.udp(2, "127.0.0.1", 24_700, transport, new DispatchContext())) {
                report("remote udp", udp, 1, batches, ids, round);
            }
        }
    }

    /** Encode then decode on one thread, no transport: the ceiling of the remote path. */
    private static void codecOnly(final int batches, final long[] ids, final int round) {
        final BatchCodec codec = new BatchCodec();
        final Batch batch = TestBatches.batch(ids, 0);
        long encodeNs = 0;
        long decodeNs = 0;
        long rows = 0;
        for (int i = 0; i < batches; i++) {
            final long t0 = System.nanoTime();
            final int length = codec.encode(batch);
            final long t1 = System.nanoTime();
            rows += codec.decode(TestBatches.SCHEMA, codec.buffer(), 0, length, "codec", i).rowCount();
            encodeNs += t1 - t0;
            decodeNs += System.nanoTime() - t1;
        }
        System.out.printf("round %d codec only  encode %,.0f rows/s, decode %,.0f rows/s%n", round,
                rows / (encodeNs / 1e9), rows / (decodeNs / 1e9));
    }

    private static void report(final String name, final EmbeddedCluster cluster, final int targetBucket,
            final int batches, final long[] ids, final int round) throws Exception {
        final Topology topology = new Topology(cluster.cnCount(), 1);
        final Exchange exchange = Exchange.gather(1, 1, topology, TestBatches.SCHEMA, 1, targetBucket);
        final ExchangeSource source = cluster.node(targetBucket).openSource(exchange, 0);
        final ExchangeSink sink = cluster.node(0).openSink(exchange, 0);
        for (int cn = 1; cn < cluster.cnCount(); cn++) {
            // Every CN runs the exchange's senders; the others send nothing.
            try (ExchangeSink idle = cluster.node(cn).openSink(exchange, 0)) {
                idle.finish();
            }
        }
        final Batch batch = TestBatches.batch(ids, 0);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Thread sender = new Thread(() -> {
            try (sink) {
                for (int i = 0; i < batches; i++) {
                    sink.send(batch);
                }
                sink.finish();
            } catch (final Throwable t) {
                failure.set(t);
            }
        });
        final long start = System.nanoTime();
        sender.start();
        long rows = 0;
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (!source.isFinished()) {
            final Batch received = source.poll();
            if (received != null) {
                rows += received.rowCount();
                received.release();
            }
            idle.idle(received == null ? 0 : 1);
            if (failure.get() != null) {
                throw new IllegalStateException(failure.get());
            }
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        sender.join();
        source.close();
        final ExchangeCounters counters = cluster.counters(exchange);
        System.out.printf("round %d %-11s %,d rows in %.2f s: %,.0f rows/s, %,.0f MiB/s payload%n", round, name, rows,
                seconds, rows / seconds, counters.remoteBytes() / seconds / (1 << 20));
    }
}
