package io.sluice.perf.tpch;

import io.sluice.format.Schema;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchEntity;
import java.util.Locale;

/**
 * Skewed TPC-H, after the skewed generator of Chaudhuri and Narasayya: the foreign keys of the fact
 * tables are drawn from a Zipf(Z) distribution over the keys they reference, so a few customers place
 * most orders and a few parts fill most line items. With Z = 1 at SF 1 the top customer has about 8% of
 * the orders, with Z = 1.5 about 38%.
 *
 * <p>What changes: {@code o_custkey} (still never a multiple of 3, as in TPC-H, so a third of the
 * customers still have no orders), {@code l_partkey}, and with it {@code l_suppkey} (the same one of the
 * part's four suppliers as in the uniform row, so every line item still matches its {@code partsupp} row)
 * and {@code l_extendedprice} (quantity times the new part's retail price). Everything else is dbgen's,
 * so {@code o_totalprice} is the uniform order's total. The rows are the same for the same Z and scale
 * factor.
 */
public final class TpchSkew {
    /** The manifest attribute holding Z, as written ({@code 1}, {@code 1.5}); absent for uniform tables. */
    public static final String ATTRIBUTE = "tpch.skew";
    /** Largest Z accepted: beyond it one key takes practically every row. */
    public static final double MAX_EXPONENT = 4;
    private static final long SUPPLIERS_PER_PART = 4;
    private static final long SEED = 0x5EEDL;

    private final double exponent;

    private TpchSkew(final double exponent) {
        this.exponent = exponent;
    }

    /** Skew with Zipf exponent {@code z}; the error says what is accepted. */
    public static TpchSkew of(final double z) {
        if (!(z > 0) || z > MAX_EXPONENT) {
            throw new IllegalArgumentException("skew " + z + " is not valid: use a Zipf exponent in (0, "
                    + (int) MAX_EXPONENT + "], e.g. 1 (the top customer places ~8% of the orders at SF 1) or 1.5 (~38%)");
        }
        return new TpchSkew(z);
    }

    /** The Zipf exponent. */
    public double exponent() {
        return exponent;
    }

    /** Z as the command line writes it. */
    public String format() {
        return TpchScale.format(exponent);
    }

    /** The share of a table's rows its heaviest foreign key gets ({@code o_custkey} of orders, {@code l_partkey} of lineitem). */
    public double topShare(final TpchTable table, final double scaleFactor) {
        return switch (table) {
            case ORDERS -> ZipfKeys.topShare(customersWithOrders(scaleFactor), exponent);
            case LINEITEM -> ZipfKeys.topShare(TpchTable.PART.expectedRows(scaleFactor), exponent);
            default -> 0;
        };
    }

    /** Whether a skew rewrites keys of {@code table} (orders and lineitem; the other tables stay dbgen's). */
    public static boolean rewrites(final TpchTable table) {
        return table == TpchTable.ORDERS || table == TpchTable.LINEITEM;
    }

    /** The columns this skew rewrites in the rows of {@code table}, or null when it leaves the table uniform. */
    SkewedRow rows(final TpchTable table, final double scaleFactor, final Schema schema) {
        if (!rewrites(table)) {
            return null;
        }
        return switch (table) {
            case ORDERS -> new SkewedOrder(schema, new ZipfKeys(customersWithOrders(scaleFactor), exponent, SEED));
            case LINEITEM -> new SkewedLineItem(schema, new ZipfKeys(TpchTable.PART.expectedRows(scaleFactor), exponent,
                    SEED + table.ordinal()), TpchTable.SUPPLIER.expectedRows(scaleFactor));
            default -> null;
        };
    }

    /** Customer keys not divisible by 3, the only ones TPC-H's orders use. */
    private static long customersWithOrders(final double scaleFactor) {
        final long customers = TpchTable.CUSTOMER.expectedRows(scaleFactor);
        return customers - customers / 3;
    }

    /** The {@code index}-th (0-based) customer key not divisible by 3: 1, 2, 4, 5, 7, ... */
    static long customerKey(final long index) {
        return index + index / 2 + 1;
    }

    /** The key of the {@code i}-th (0..3) supplier of a part, as TPC-H defines {@code partsupp} (clause 4.2.3). */
    static long supplierOf(final long partKey, final long i, final long suppliers) {
        return (partKey + i * (suppliers / SUPPLIERS_PER_PART + (partKey - 1) / suppliers)) % suppliers + 1;
    }

    /** A part's retail price in cents, as TPC-H defines {@code p_retailprice} (clause 4.2.3). */
    static long retailPriceCents(final long partKey) {
        return 90_000 + (partKey / 10) % 20_001 + 100 * (partKey % 1_000);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "Zipf(%s)", format());
    }

    /** The rewritten columns of the row being written: {@link #next} per row, then a value per column it replaces. */
    abstract static class SkewedRow {
        private final boolean[] replaced;
        final long[] values;

        SkewedRow(final Schema schema) {
            this.replaced = new boolean[schema.size()];
            this.values = new long[schema.size()];
        }

        final int replace(final Schema schema, final String column) {
            final int c = schema.indexOf(column);
            replaced[c] = true;
            return c;
        }

        /** Computes the replaced columns of the next row. */
        abstract void next(TpchEntity row);

        /** Whether column {@code c} is replaced. */
        final boolean replaces(final int c) {
            return replaced[c];
        }

        /** Column {@code c}'s replaced value in the current row (a key, or a decimal's cents). */
        final long value(final int c) {
            return values[c];
        }
    }

    private static final class SkewedOrder extends SkewedRow {
        private final ZipfKeys customers;
        private final int custKey;

        SkewedOrder(final Schema schema, final ZipfKeys customers) {
            super(schema);
            this.customers = customers;
            this.custKey = replace(schema, "o_custkey");
        }

        @Override
        void next(final TpchEntity row) {
            values[custKey] = customerKey(customers.next());
        }
    }

    private static final class SkewedLineItem extends SkewedRow {
        private final ZipfKeys parts;
        private final long suppliers;
        private final int partKey;
        private final int suppKey;
        private final int extendedPrice;

        SkewedLineItem(final Schema schema, final ZipfKeys parts, final long suppliers) {
            super(schema);
            this.parts = parts;
            this.suppliers = suppliers;
            this.partKey = replace(schema, "l_partkey");
            this.suppKey = replace(schema, "l_suppkey");
            this.extendedPrice = replace(schema, "l_extendedprice");
        }

        @Override
        void next(final TpchEntity row) {
            final LineItem item = (LineItem) row;
            final long part = parts.next() + 1;
            values[partKey] = part;
            values[suppKey] = supplierOf(part, supplierNumber(item), suppliers);
            values[extendedPrice] = item.getQuantity() * retailPriceCents(part);
        }

        /** Which of its part's four suppliers the uniform row's supplier is. */
        private long supplierNumber(final LineItem item) {
            for (long i = 0; i < SUPPLIERS_PER_PART; i++) {
                if (supplierOf(item.getPartKey(), i, suppliers) == item.getSupplierKey()) {
                    return i;
                }
            }
            throw new IllegalStateException("line item " + item.getOrderKey() + "/" + item.getLineNumber()
                    + ": supplier " + item.getSupplierKey() + " is none of part " + item.getPartKey() + "'s suppliers");
        }
    }
}
