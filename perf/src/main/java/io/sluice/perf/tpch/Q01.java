package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.add;
import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.le;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.mul;
import static io.sluice.engine.expr.Expr.sub;

import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Dates;
import io.sluice.engine.expr.Expr;
import io.sluice.engine.plan.Plan;
import io.sluice.zonemap.Predicate;
import java.util.List;

/** TPC-H Q1, pricing summary report (DELTA 90). */
public final class Q01 implements Query {
    static final String SQL = TpchSql.text(1);

    @Override
    public String name() {
        return "q1";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("lineitem");
    }

    @Override
    public Plan plan() {
        final Expr discounted = mul(col("l_extendedprice"), sub(lit(1), col("l_discount")));
        return Plan.scan("lineitem", "l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice", "l_discount",
                        "l_tax", "l_shipdate")
                .prune(Predicate.le("l_shipdate", Query.day("1998-09-02")))
                .filter(le(col("l_shipdate"), Dates.plusDays("1998-12-01", -90)))
                .aggregate(Plan.groupBy("l_returnflag", "l_linestatus"),
                        Plan.sum(col("l_quantity"), "sum_qty"),
                        Plan.sum(col("l_extendedprice"), "sum_base_price"),
                        Plan.sum(discounted, "sum_disc_price"),
                        Plan.sum(mul(discounted, add(lit(1), col("l_tax"))), "sum_charge"),
                        Plan.avg(col("l_quantity"), "avg_qty"),
                        Plan.avg(col("l_extendedprice"), "avg_price"),
                        Plan.avg(col("l_discount"), "avg_disc"),
                        Plan.count("count_order"))
                .orderBy(SortKey.asc("l_returnflag"), SortKey.asc("l_linestatus"));
    }
}
