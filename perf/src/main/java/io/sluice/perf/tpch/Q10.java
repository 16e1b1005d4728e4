package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.and;
import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.date;
import static io.sluice.engine.expr.Expr.eq;
import static io.sluice.engine.expr.Expr.ge;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.lt;
import static io.sluice.engine.expr.Expr.mul;
import static io.sluice.engine.expr.Expr.str;
import static io.sluice.engine.expr.Expr.sub;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.expr.Dates;
import io.sluice.engine.plan.Plan;
import io.sluice.zonemap.Predicate;
import java.util.List;

/** TPC-H Q10, returned item reporting (DATE 1993-10-01). */
public final class Q10 implements Query {
    static final String SQL = TpchSql.text(10);

    @Override
    public String name() {
        return "q10";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("customer", "orders", "lineitem", "nation");
    }

    @Override
    public Plan plan() {
        final Plan orders = Plan.scan("orders", "o_orderkey", "o_custkey", "o_orderdate")
                .prune(Predicate.ge("o_orderdate", Query.day("1993-10-01")),
                        Predicate.lt("o_orderdate", Query.day("1994-01-01")))
                .filter(and(ge(col("o_orderdate"), date("1993-10-01")),
                        lt(col("o_orderdate"), Dates.plusMonths("1993-10-01", 3))))
                .select("o_orderkey", "o_custkey");
        final Plan customers = Plan.scan("customer", "c_custkey", "c_name", "c_acctbal", "c_phone", "c_address",
                        "c_comment", "c_nationkey")
                .join(JoinType.INNER, Plan.scan("nation", "n_nationkey", "n_name"),
                        List.of("c_nationkey"), List.of("n_nationkey"));
        return Plan.scan("lineitem", "l_orderkey", "l_extendedprice", "l_discount", "l_returnflag")
                .filter(eq(col("l_returnflag"), str("R")))
                .join(JoinType.INNER, orders, List.of("l_orderkey"), List.of("o_orderkey"))
                .join(JoinType.INNER, customers, List.of("o_custkey"), List.of("c_custkey"))
                .aggregate(Plan.groupBy("c_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address",
                                "c_comment"),
                        Plan.sum(mul(col("l_extendedprice"), sub(lit(1), col("l_discount"))), "revenue"))
                .select("c_custkey", "c_name", "revenue", "c_acctbal", "n_name", "c_address", "c_phone", "c_comment")
                .orderBy(SortKey.desc("revenue"))
                .limit(20);
    }
}
