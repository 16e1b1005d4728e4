package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.and;
import static io.sluice.engine.expr.Expr.caseWhen;
import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.date;
import static io.sluice.engine.expr.Expr.eq;
import static io.sluice.engine.expr.Expr.ge;
import static io.sluice.engine.expr.Expr.in;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.lt;
import static io.sluice.engine.expr.Expr.ne;
import static io.sluice.engine.expr.Expr.or;
import static io.sluice.engine.expr.Expr.str;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Dates;
import io.sluice.engine.plan.Plan;
import io.sluice.zonemap.Predicate;
import java.util.List;

/** TPC-H Q12, shipping modes and order priority (SHIPMODE1 MAIL, SHIPMODE2 SHIP, DATE 1994-01-01). */
public final class Q12 implements Query {
    static final String SQL = TpchSql.text(12);

    @Override
    public String name() {
        return "q12";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("orders", "lineitem");
    }

    @Override
    public Plan plan() {
        final Plan lines = Plan.scan("lineitem", "l_orderkey", "l_shipmode", "l_commitdate", "l_receiptdate",
                        "l_shipdate")
                .prune(Predicate.ge("l_receiptdate", Query.day("1994-01-01")),
                        Predicate.lt("l_receiptdate", Query.day("1995-01-01")))
                .filter(and(in(col("l_shipmode"), "MAIL", "SHIP"),
                        lt(col("l_commitdate"), col("l_receiptdate")),
                        lt(col("l_shipdate"), col("l_commitdate")),
                        ge(col("l_receiptdate"), date("1994-01-01")),
                        lt(col("l_receiptdate"), Dates.plusYears("1994-01-01", 1))));
        return lines
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey", "o_orderpriority"),
                        List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.groupBy("l_shipmode"),
                        Plan.sum(caseWhen(or(eq(col("o_orderpriority"), str("1-URGENT")),
                                eq(col("o_orderpriority"), str("2-HIGH"))), lit(1), lit(0)), "high_line_count"),
                        Plan.sum(caseWhen(and(ne(col("o_orderpriority"), str("1-URGENT")),
                                ne(col("o_orderpriority"), str("2-HIGH"))), lit(1), lit(0)), "low_line_count"))
                .orderBy(SortKey.asc("l_shipmode"));
    }
}
