package io.sluice.parquet;

import io.sluice.format.ColumnType;
import io.sluice.format.ColumnVector;
import io.sluice.format.Decimal128Vector;
import io.sluice.format.IntVector;
import io.sluice.format.LongVector;
import io.sluice.format.NullMask;
import io.sluice.format.StringVector;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;

/**
 * Decodes rows {@code [first, first + rows)} of one column chunk, page by page, into a Sluice vector.
 * A page is decoded whole: its definition levels into an {@code int[]}, then its non-null values in one
 * loop (plain fixed-width values copied from the page's bytes in bulk), then the rows the block wants are
 * copied out; pages before the block's first row are passed over undecoded. Strings whose pages are all
 * dictionary-encoded become a dictionary vector (codes over the chunk's dictionary) with no byte copied per
 * row. Not thread-safe: one per column read.
 */
final class PageDecoder {
    /** Little-endian views of a page's bytes, which the JIT compiles to plain loads. */
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ParquetColumn column;
    private final ColumnDescriptor descriptor;
    private final int maxDefinition;
    private final int first;
    private final int rows;
    private final long[] nulls;
    private boolean anyNull;
    /** Rows of the block filled so far. */
    private int filled;
    /** The row of the row group the page being decoded starts at. */
    private int groupRow;

    // Output, by decoding.
    private int[] ints;
    private long[] longs;
    private long[] highs;
    private int[] offsets;
    private byte[] bytes;
    private int byteEnd;
    private int[] codes;

    // The page being decoded: levels, then its non-null values in order.
    private int[] levels = new int[0];
    private int[] pageInts = new int[0];
    private long[] pageLongs = new long[0];
    private Binary[] pageBinaries = new Binary[0];
    private int[] pageCodes = new int[0];

    // The chunk's dictionary, materialised on first use.
    private int[] dictInts;
    private long[] dictLongs;
    private Binary[] dictBinaries;

    private PageDecoder(final ParquetColumn column, final int first, final int rows) {
        this.column = column;
        this.descriptor = column.descriptor();
        this.maxDefinition = descriptor.getMaxDefinitionLevel();
        this.first = first;
        this.rows = rows;
        this.nulls = new long[NullMask.words(rows)];
    }

    /** Rows {@code [first, first + rows)} of the chunk {@code pages} reads, as a vector of {@code column}'s type. */
    static ColumnVector read(final ParquetColumn column, final PageReader pages, final int first, final int rows)
            throws IOException {
        return new PageDecoder(column, first, rows).decode(pages);
    }

    private ColumnVector decode(final PageReader pages) throws IOException {
        final DictionaryPage dictionaryPage = pages.readDictionaryPage();
        final Dictionary dictionary = dictionaryPage == null ? null
                : dictionaryPage.getEncoding().initDictionary(descriptor, dictionaryPage);
        // Pages before the block's first row are passed over undecoded; the rest are decoded in order.
        final List<DataPage> wanted = new ArrayList<>();
        final int end = first + rows;
        int position = 0;
        while (position < end) {
            final DataPage page = pages.readPage();
            if (page == null) {
                throw new ParquetDecodingException("the column chunk ends at row " + position + " of the row group,"
                        + " before row " + end);
            }
            final int count = page.getValueCount();
            if (position + count > first) {
                if (wanted.isEmpty()) {
                    groupRow = position;
                }
                wanted.add(page);
            }
            position += count;
        }
        final boolean asDictionary = column.decoding() == Decoding.STRING && dictionary != null
                && allUseDictionary(wanted);
        allocate(asDictionary);
        for (final DataPage page : wanted) {
            decodePage(page, dictionary, asDictionary);
        }
        if (filled != rows) {
            throw new ParquetDecodingException("the column chunk holds " + filled + " of the block's " + rows + " rows");
        }
        return vector(dictionary, asDictionary);
    }

    private static boolean allUseDictionary(final List<DataPage> pages) {
        for (final DataPage page : pages) {
            final Encoding e = page instanceof DataPageV1 v1 ? v1.getValueEncoding()
                    : ((DataPageV2) page).getDataEncoding();
            if (!e.usesDictionary()) {
                return false;
            }
        }
        return true;
    }

    private void allocate(final boolean asDictionary) {
        switch (column.decoding()) {
            case INT32 -> ints = new int[rows];
            case INT32_AS_LONG, INT64, DECIMAL_BYTES -> longs = new long[rows];
            case DECIMAL128_BYTES -> {
                highs = new long[rows];
                longs = new long[rows];
            }
            case STRING -> {
                if (asDictionary) {
                    codes = new int[rows];
                } else {
                    offsets = new int[rows + 1];
                    bytes = new byte[Math.max(64, rows * 8)];
                }
            }
            default -> throw new IllegalStateException("no decoder for " + column.decoding());
        }
    }

    /** Decodes one page, whose first row is row {@link #groupRow} of the row group; copies out the block's rows. */
    private void decodePage(final DataPage page, final Dictionary dictionary, final boolean asDictionary)
            throws IOException {
        final int count = page.getValueCount();
        final Encoding encoding;
        final ByteBufferInputStream values;
        final int defined;
        if (page instanceof DataPageV1 v1) {
            final ByteBufferInputStream in = v1.getBytes().toInputStream();
            // A top-level column stores no repetition levels; the reader consumes whatever its encoding holds.
            v1.getRlEncoding().getValuesReader(descriptor, ValuesType.REPETITION_LEVEL).initFromPage(count, in);
            if (maxDefinition == 0) {
                defined = count;
            } else if (v1.getDlEncoding() == Encoding.RLE) {
                final int length = in.slice(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).getInt();
                defined = levels(in.slice(length), count);
            } else {
                final ValuesReader definition = v1.getDlEncoding().getValuesReader(descriptor,
                        ValuesType.DEFINITION_LEVEL);
                definition.initFromPage(count, in);
                levels = grow(levels, count);
                int n = 0;
                for (int i = 0; i < count; i++) {
                    levels[i] = definition.readInteger();
                    n += levels[i] == maxDefinition ? 1 : 0;
                }
                defined = n;
            }
            encoding = v1.getValueEncoding();
            values = in;
        } else {
            final DataPageV2 v2 = (DataPageV2) page;
            defined = maxDefinition == 0 ? count : levels(v2.getDefinitionLevels().toByteBuffer(), count);
            encoding = v2.getDataEncoding();
            values = v2.getData().toInputStream();
        }
        decodeValues(encoding, values, defined, dictionary, asDictionary);
        final int from = Math.max(first - groupRow, 0);
        final int to = Math.min(first + rows - groupRow, count);
        if (defined == count) {
            copyDefined(from, to - from);
        } else {
            int k = 0;
            for (int i = 0; i < from; i++) {
                k += levels[i] == maxDefinition ? 1 : 0;
            }
            for (int i = from; i < to; i++) {
                if (levels[i] == maxDefinition) {
                    copyDefined(k++, 1);
                } else {
                    final int row = filled++;
                    NullMask.setNull(nulls, row);
                    anyNull = true;
                    if (offsets != null) {
                        offsets[row + 1] = byteEnd;
                    }
                }
            }
        }
        groupRow += count;
    }

    /** Decodes {@code count} definition levels into {@link #levels}; returns how many rows are not null. */
    private int levels(final ByteBuffer encoded, final int count) {
        final int bitWidth = BytesUtils.getWidthFromMaxInt(maxDefinition);
        if (HybridDecoder.isOneRun(encoded, bitWidth, maxDefinition, count)) {
            return count; // no row of the page is null: the levels are not needed
        }
        levels = grow(levels, count);
        HybridDecoder.decode(encoded, bitWidth, levels, count);
        int defined = 0;
        for (int i = 0; i < count; i++) {
            defined += levels[i] == maxDefinition ? 1 : 0;
        }
        return defined;
    }

    /** Decodes a page's {@code defined} values into the page arrays. */
    private void decodeValues(final Encoding encoding, final ByteBufferInputStream in, final int defined,
                              final Dictionary dictionary, final boolean asDictionary) throws IOException {
        final Decoding decoding = column.decoding();
        if (encoding == Encoding.PLAIN && (decoding == Decoding.INT32 || decoding == Decoding.INT32_AS_LONG)) {
            pageInts = grow(pageInts, defined);
            final ByteBuffer plainValues = heap(in.slice(defined * Integer.BYTES));
            final byte[] b = plainValues.array();
            final int base = plainValues.arrayOffset() + plainValues.position();
            for (int i = 0; i < defined; i++) {
                pageInts[i] = (int) INTS.get(b, base + i * Integer.BYTES);
            }
            return;
        }
        if (encoding == Encoding.PLAIN && decoding == Decoding.INT64) {
            pageLongs = grow(pageLongs, defined);
            final ByteBuffer plainValues = heap(in.slice(defined * Long.BYTES));
            final byte[] b = plainValues.array();
            final int base = plainValues.arrayOffset() + plainValues.position();
            for (int i = 0; i < defined; i++) {
                pageLongs[i] = (long) LONGS.get(b, base + i * Long.BYTES);
            }
            return;
        }
        if (encoding.usesDictionary()) {
            if (dictionary == null) {
                throw new ParquetDecodingException("a page is dictionary-encoded but the chunk has no dictionary page");
            }
            dictionaryCodes(in, defined);
            final int[] codes = pageCodes;
            switch (decoding) {
                case INT32, INT32_AS_LONG -> {
                    final int[] dict = dictionaryInts(dictionary);
                    pageInts = grow(pageInts, defined);
                    for (int i = 0; i < defined; i++) {
                        pageInts[i] = dict[codes[i]];
                    }
                }
                case INT64 -> {
                    final long[] dict = dictionaryLongs(dictionary);
                    pageLongs = grow(pageLongs, defined);
                    for (int i = 0; i < defined; i++) {
                        pageLongs[i] = dict[codes[i]];
                    }
                }
                case STRING, DECIMAL_BYTES, DECIMAL128_BYTES -> {
                    if (!asDictionary) {
                        final Binary[] dict = dictionaryBinaries(dictionary);
                        pageBinaries = grow(pageBinaries, defined);
                        for (int i = 0; i < defined; i++) {
                            pageBinaries[i] = dict[codes[i]];
                        }
                    }
                }
                default -> throw new IllegalStateException("no decoder for " + decoding);
            }
            return;
        }
        final ValuesReader reader = encoding.getValuesReader(descriptor, ValuesType.VALUES);
        reader.initFromPage(defined, in);
        switch (decoding) {
            case INT32, INT32_AS_LONG -> {
                pageInts = grow(pageInts, defined);
                for (int i = 0; i < defined; i++) {
                    pageInts[i] = reader.readInteger();
                }
            }
            case INT64 -> {
                pageLongs = grow(pageLongs, defined);
                for (int i = 0; i < defined; i++) {
                    pageLongs[i] = reader.readLong();
                }
            }
            case STRING, DECIMAL_BYTES, DECIMAL128_BYTES -> {
                pageBinaries = grow(pageBinaries, defined);
                for (int i = 0; i < defined; i++) {
                    pageBinaries[i] = reader.readBytes();
                }
            }
            default -> throw new IllegalStateException("no decoder for " + decoding);
        }
    }

    /** Decodes a dictionary-encoded page's codes (a bit width byte, then hybrid runs) into {@link #pageCodes}. */
    private void dictionaryCodes(final ByteBufferInputStream in, final int defined) throws IOException {
        pageCodes = grow(pageCodes, defined);
        if (defined == 0) {
            return;
        }
        final ByteBuffer encoded = in.slice(in.available());
        HybridDecoder.decode(encoded, encoded.get() & 0xFF, pageCodes, defined);
    }

    private int[] dictionaryInts(final Dictionary dictionary) {
        if (dictInts == null) {
            dictInts = new int[dictionary.getMaxId() + 1];
            for (int i = 0; i < dictInts.length; i++) {
                dictInts[i] = dictionary.decodeToInt(i);
            }
        }
        return dictInts;
    }

    private long[] dictionaryLongs(final Dictionary dictionary) {
        if (dictLongs == null) {
            dictLongs = new long[dictionary.getMaxId() + 1];
            for (int i = 0; i < dictLongs.length; i++) {
                dictLongs[i] = dictionary.decodeToLong(i);
            }
        }
        return dictLongs;
    }

    private Binary[] dictionaryBinaries(final Dictionary dictionary) {
        if (dictBinaries == null) {
            dictBinaries = new Binary[dictionary.getMaxId() + 1];
            for (int i = 0; i < dictBinaries.length; i++) {
                dictBinaries[i] = dictionary.decodeToBinary(i);
            }
        }
        return dictBinaries;
    }

    /** Copies {@code n} non-null values, from page value {@code k} on, to the next {@code n} rows of the block. */
    private void copyDefined(final int k, final int n) {
        final int row = filled;
        switch (column.decoding()) {
            case INT32 -> System.arraycopy(pageInts, k, ints, row, n);
            case INT32_AS_LONG -> {
                for (int i = 0; i < n; i++) {
                    longs[row + i] = pageInts[k + i];
                }
            }
            case INT64 -> System.arraycopy(pageLongs, k, longs, row, n);
            case DECIMAL_BYTES -> {
                for (int i = 0; i < n; i++) {
                    final byte[] b = pageBinaries[k + i].getBytesUnsafe();
                    longs[row + i] = ParquetDecimals.toLong(b, 0, b.length);
                }
            }
            case DECIMAL128_BYTES -> {
                for (int i = 0; i < n; i++) {
                    final byte[] b = pageBinaries[k + i].getBytesUnsafe();
                    final int len = Math.min(16, b.length);
                    highs[row + i] = ParquetDecimals.high(b, b.length - len, len);
                    longs[row + i] = ParquetDecimals.low(b, b.length - len, len);
                }
            }
            case STRING -> {
                if (codes != null) {
                    System.arraycopy(pageCodes, k, codes, row, n);
                } else {
                    for (int i = 0; i < n; i++) {
                        final ByteBuffer b = pageBinaries[k + i].toByteBuffer();
                        final int length = b.remaining();
                        if (byteEnd + length > bytes.length) {
                            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, byteEnd + length));
                        }
                        b.get(bytes, byteEnd, length);
                        byteEnd += length;
                        offsets[row + i + 1] = byteEnd;
                    }
                }
            }
            default -> throw new IllegalStateException("no decoder for " + column.decoding());
        }
        filled += n;
    }

    private ColumnVector vector(final Dictionary dictionary, final boolean asDictionary) {
        final ColumnType type = column.field().type();
        final long[] mask = anyNull ? nulls : null;
        return switch (column.decoding()) {
            case INT32 -> new IntVector(type, ints, rows, mask);
            case INT32_AS_LONG, INT64, DECIMAL_BYTES -> new LongVector(type, longs, rows, mask);
            case DECIMAL128_BYTES -> new Decimal128Vector(type, highs, longs, rows, mask);
            case STRING -> asDictionary ? StringVector.dictionary(codes, dictionaryVector(dictionary), rows, mask)
                    : StringVector.plain(offsets, bytes, rows, mask);
            default -> throw new IllegalStateException("no decoder for " + column.decoding());
        };
    }

    private static StringVector dictionaryVector(final Dictionary dictionary) {
        final int size = dictionary.getMaxId() + 1;
        final int[] offsets = new int[size + 1];
        int total = 0;
        for (int i = 0; i < size; i++) {
            total += dictionary.decodeToBinary(i).length();
            offsets[i + 1] = total;
        }
        final byte[] bytes = new byte[total];
        for (int i = 0; i < size; i++) {
            dictionary.decodeToBinary(i).toByteBuffer().get(bytes, offsets[i], offsets[i + 1] - offsets[i]);
        }
        return StringVector.plain(offsets, bytes, size, null);
    }

    /** The buffer itself when it is a heap buffer, else a heap copy of its remaining bytes. */
    private static ByteBuffer heap(final ByteBuffer buffer) {
        if (buffer.hasArray()) {
            return buffer;
        }
        final byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return ByteBuffer.wrap(copy);
    }

    private static int[] grow(final int[] a, final int n) {
        return a.length >= n ? a : new int[Math.max(n, a.length * 2)];
    }

    private static Binary[] grow(final Binary[] a, final int n) {
        return a.length >= n ? a : new Binary[Math.max(n, a.length * 2)];
    }

    private static long[] grow(final long[] a, final int n) {
        return a.length >= n ? a : new long[Math.max(n, a.length * 2)];
    }
}
