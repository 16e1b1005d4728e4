package io.sluice.parquet;

import java.lang.reflect.Constructor;
import java.util.HashMap;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetMetricsCallback;

/**
 * Parquet read options built without Hadoop. parquet-java's {@code ParquetReadOptions.Builder} always
 * creates its default codec factory, which loads {@code org.apache.hadoop.io.compress.zlib.ZlibCompressor},
 * and its record filter through {@code ParquetInputFormat} (a Hadoop {@code FileInputFormat}); both fail
 * with no hadoop-common on the classpath. The options' own constructor takes every setting and touches no
 * Hadoop class, but is package-private, so it is called reflectively, once.
 */
final class ReadOptions {
    /** parquet-java's default largest buffer a read allocates at once. */
    private static final int MAX_ALLOCATION = 8 * 1024 * 1024;
    private static final Constructor<ParquetReadOptions> CONSTRUCTOR = constructor();

    private ReadOptions() {
    }

    private static Constructor<ParquetReadOptions> constructor() {
        try {
            final Constructor<ParquetReadOptions> c = ParquetReadOptions.class.getDeclaredConstructor(
                    boolean.class, boolean.class, boolean.class, boolean.class, boolean.class, boolean.class,
                    boolean.class, boolean.class, boolean.class, FilterCompat.Filter.class,
                    ParquetMetadataConverter.MetadataFilter.class, CompressionCodecFactory.class,
                    ByteBufferAllocator.class, int.class, Map.class, FileDecryptionProperties.class,
                    ParquetMetricsCallback.class, ParquetConfiguration.class);
            c.setAccessible(true);
            return c;
        } catch (final ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError("parquet-java's ParquetReadOptions has no constructor of the"
                    + " arguments parquet-java 1.18 takes (" + e + "): build Sluice against the parquet-java version"
                    + " its pom names");
        }
    }

    /**
     * Options that decompress with {@code codecs}, verify page checksums where the writer wrote them, and
     * apply no filter (Sluice prunes blocks by their zonemaps itself).
     */
    static ParquetReadOptions of(final CompressionCodecFactory codecs) {
        try {
            return CONSTRUCTOR.newInstance(false, false, false, false, false, true, false, false, false,
                    FilterCompat.NOOP, ParquetMetadataConverter.NO_FILTER, codecs, new HeapByteBufferAllocator(),
                    MAX_ALLOCATION, new HashMap<String, String>(), null, null, new PlainParquetConfiguration());
        } catch (final ReflectiveOperationException e) {
            throw new IllegalStateException("parquet read options cannot be built: " + e, e);
        }
    }
}
