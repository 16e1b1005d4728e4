package io.sluice.engine.filter;

import io.sluice.engine.wire.WireReader;
import io.sluice.engine.wire.WireWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.roaringbitmap.RoaringBitmap;

/**
 * The wire form of partial runtime filters, as CNs send them to the coordinator and it sends them on:
 * a list of (bucket, partial), each partial as key type, Bloom size, rows, min, max, then a bitmap
 * (RoaringBitmap's portable serialization) or a Bloom filter's words. Checked field by field on decode.
 */
public final class RuntimeFilterCodec {
    private static final byte BITMAP = 1;
    private static final byte BLOOM = 2;

    private RuntimeFilterCodec() {
    }

    /** Appends partials by bucket ({@code null} entries are left out). */
    public static void write(final FilterPartial[] byBucket, final WireWriter out) {
        int count = 0;
        for (final FilterPartial p : byBucket) {
            count += p == null ? 0 : 1;
        }
        out.writeInt(byBucket.length);
        out.writeInt(count);
        for (int b = 0; b < byBucket.length; b++) {
            if (byBucket[b] != null) {
                out.writeInt(b);
                write(byBucket[b], out);
            }
        }
    }

    /** The bytes of partials by bucket. */
    public static byte[] encode(final FilterPartial[] byBucket) {
        final WireWriter out = new WireWriter();
        write(byBucket, out);
        return out.toByteArray();
    }

    /** Reads what {@link #write(FilterPartial[], WireWriter)} wrote: partials by bucket, null where none came. */
    public static FilterPartial[] read(final WireReader in) {
        final int buckets = in.readInt("filters.buckets");
        if (buckets < 0 || buckets > 1 << 16) {
            throw in.error("filters.buckets", buckets + " buckets: a topology has at most 65536");
        }
        final FilterPartial[] out = new FilterPartial[buckets];
        final int count = in.readCount("filters.count", 4 + 1 + 4 + 8 * 3 + 1);
        for (int i = 0; i < count; i++) {
            final int b = in.readInt("filters.bucket");
            if (b < 0 || b >= buckets || out[b] != null) {
                throw in.error("filters.bucket", "bucket " + b + " is outside 0.." + (buckets - 1) + " or repeated");
            }
            out[b] = readPartial(in);
        }
        return out;
    }

    /** Decodes {@link #encode}'s bytes. */
    public static FilterPartial[] decode(final byte[] bytes) {
        final WireReader in = new WireReader(new org.agrona.concurrent.UnsafeBuffer(bytes), 0, bytes.length);
        final FilterPartial[] out = read(in);
        in.expectEnd("filters");
        return out;
    }

    private static void write(final FilterPartial p, final WireWriter out) {
        out.writeBoolean(p.isIntegerKey());
        out.writeInt(p.bloomBytes());
        out.writeLong(p.rows());
        out.writeLong(p.min());
        out.writeLong(p.max());
        if (p.bitmap() != null) {
            out.writeByte(BITMAP);
            final RoaringBitmap bits = p.bitmap().bits();
            bits.runOptimize();
            final ByteBuffer buffer = ByteBuffer.allocate(bits.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
            bits.serialize(buffer);
            out.writeBytes(buffer.array());
        } else {
            out.writeByte(BLOOM);
            final long[] words = p.bloom().words();
            out.writeInt(words.length);
            for (final long w : words) {
                out.writeLong(w);
            }
        }
    }

    private static FilterPartial readPartial(final WireReader in) {
        final boolean integer = in.readBoolean("filter.integerKey");
        final int bloomBytes = in.readInt("filter.bloomBytes");
        if (bloomBytes < SplitBlockBloomFilter.BLOCK_BYTES || Integer.bitCount(bloomBytes) != 1) {
            throw in.error("filter.bloomBytes", bloomBytes + " bytes: a power of two of at least 32");
        }
        final long rows = in.readLong("filter.rows");
        final long min = in.readLong("filter.min");
        final long max = in.readLong("filter.max");
        final byte kind = in.readByte("filter.kind");
        if (kind == BITMAP) {
            if (!integer) {
                throw in.error("filter.kind", "a bitmap for a hashed key");
            }
            final byte[] bytes = in.readBytes("filter.bitmap");
            final RoaringBitmap bits = new RoaringBitmap();
            try {
                bits.deserialize(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
            } catch (final IOException | RuntimeException e) {
                throw in.error("filter.bitmap", in.position(), "not a RoaringBitmap: " + e.getMessage(), e);
            }
            return FilterPartial.of(true, bloomBytes, rows, min, max, new ExactBitmap(bits), null);
        }
        if (kind != BLOOM) {
            throw in.error("filter.kind", "kind " + kind + " is neither bitmap (1) nor Bloom (2)");
        }
        final int length = in.readCount("filter.bloom.words", Long.BYTES);
        if (length * Long.BYTES != bloomBytes) {
            throw in.error("filter.bloom.words", length + " words for a Bloom filter of " + bloomBytes + " bytes");
        }
        final long[] words = new long[length];
        for (int i = 0; i < length; i++) {
            words[i] = in.readLong("filter.bloom.word");
        }
        return FilterPartial.of(integer, bloomBytes, rows, min, max, null, new SplitBlockBloomFilter(words));
    }
}
