package io.sluice.perf.tpcds;

import io.sluice.format.ColumnType;
import io.sluice.format.Field;
import io.sluice.format.Schema;
import io.trino.tpcds.Table;
import io.trino.tpcds.column.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The 24 TPC-DS tables with their standard names and types: identifiers (surrogate keys) as int64,
 * other integers as int32, DECIMAL(p,s) as decimals, dates as dates, CHAR and VARCHAR as strings.
 * Each keeps the order in which dsdgen generates its rows, which is the order of {@link #sortKey}:
 * a dimension by its surrogate key, a sales or returns table by its ticket or order number (the
 * rows of one ticket or order together, not in date order), inventory by date.
 */
public enum TpcdsTable {
    CALL_CENTER(Table.CALL_CENTER, "cc_call_center_sk"),
    CATALOG_PAGE(Table.CATALOG_PAGE, "cp_catalog_page_sk"),
    CATALOG_RETURNS(Table.CATALOG_RETURNS, "cr_order_number"),
    CATALOG_SALES(Table.CATALOG_SALES, "cs_order_number"),
    CUSTOMER(Table.CUSTOMER, "c_customer_sk"),
    CUSTOMER_ADDRESS(Table.CUSTOMER_ADDRESS, "ca_address_sk"),
    CUSTOMER_DEMOGRAPHICS(Table.CUSTOMER_DEMOGRAPHICS, "cd_demo_sk"),
    DATE_DIM(Table.DATE_DIM, "d_date_sk"),
    HOUSEHOLD_DEMOGRAPHICS(Table.HOUSEHOLD_DEMOGRAPHICS, "hd_demo_sk"),
    INCOME_BAND(Table.INCOME_BAND, "ib_income_band_sk"),
    INVENTORY(Table.INVENTORY, "inv_date_sk"),
    ITEM(Table.ITEM, "i_item_sk"),
    PROMOTION(Table.PROMOTION, "p_promo_sk"),
    REASON(Table.REASON, "r_reason_sk"),
    SHIP_MODE(Table.SHIP_MODE, "sm_ship_mode_sk"),
    STORE(Table.STORE, "s_store_sk"),
    STORE_RETURNS(Table.STORE_RETURNS, "sr_ticket_number"),
    STORE_SALES(Table.STORE_SALES, "ss_ticket_number"),
    TIME_DIM(Table.TIME_DIM, "t_time_sk"),
    WAREHOUSE(Table.WAREHOUSE, "w_warehouse_sk"),
    WEB_PAGE(Table.WEB_PAGE, "wp_web_page_sk"),
    WEB_RETURNS(Table.WEB_RETURNS, "wr_order_number"),
    WEB_SALES(Table.WEB_SALES, "ws_order_number"),
    WEB_SITE(Table.WEB_SITE, "web_site_sk");

    private final Table generator;
    private final String sortKey;
    private final Schema schema;

    TpcdsTable(final Table generator, final String sortKey) {
        this.generator = generator;
        this.sortKey = sortKey;
        final List<Field> fields = new ArrayList<>();
        for (final Column c : generator.getColumns()) {
            fields.add(new Field(c.getName(), type(c)));
        }
        this.schema = new Schema(fields);
    }

    private static ColumnType type(final Column c) {
        return switch (c.getType().getBase()) {
            case IDENTIFIER -> ColumnType.INT64;
            case INTEGER -> ColumnType.INT32;
            case DATE -> ColumnType.DATE;
            case DECIMAL -> ColumnType.decimal(c.getType().getPrecision().orElseThrow(),
                    c.getType().getScale().orElseThrow());
            case VARCHAR, CHAR, TIME -> ColumnType.STRING;
        };
    }

    /** The table's standard name, e.g. {@code store_sales}. */
    public String tableName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The standard schema. */
    public Schema schema() {
        return schema;
    }

    /** The column whose order the generated rows follow. */
    public String sortKey() {
        return sortKey;
    }

    /** The rows dsdgen writes at a scale factor. */
    public long expectedRows(final double scaleFactor) {
        return new io.trino.tpcds.Scaling(scaleFactor).getRowCount(generator);
    }

    /** The generator's table. */
    Table generator() {
        return generator;
    }

    /** The table of a standard name, or null. */
    public static TpcdsTable byName(final String name) {
        for (final TpcdsTable t : values()) {
            if (t.tableName().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
