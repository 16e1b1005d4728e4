-- Window frames with offsets: ROWS counts rows in window order, RANGE measures the distance between
-- values of the one ORDER BY key. Every shape of bound, over partitions, ties, NULLs and DESC.
-- ROWS frames order by a unique tie-breaker, so that the rows a frame holds are the same in DuckDB.

-- ROWS offsets on both sides, and the frame that is one row.
select o_orderkey, o_custkey,
       sum(o_totalprice) over (partition by o_custkey order by o_orderdate, o_orderkey rows between 2 preceding and 1 following) as s,
       avg(o_totalprice) over (partition by o_custkey order by o_orderdate, o_orderkey rows between 2 preceding and 1 following) as a,
       count(*) over (partition by o_custkey order by o_orderdate, o_orderkey rows between 2 preceding and 1 following) as n,
       min(o_totalprice) over (partition by o_custkey order by o_orderdate, o_orderkey rows between 2 preceding and 1 following) as mn,
       max(o_orderdate) over (partition by o_custkey order by o_orderdate, o_orderkey rows between 2 preceding and 1 following) as mx,
       sum(o_shippriority) over (partition by o_custkey order by o_orderdate, o_orderkey rows between current row and current row) as one
from orders where o_custkey < 200;

-- ROWS frames open at one end, and the short form.
select o_orderkey,
       sum(o_totalprice) over (order by o_orderkey rows between unbounded preceding and 1 preceding) as before_me,
       sum(o_totalprice) over (order by o_orderkey rows between current row and unbounded following) as from_me,
       max(o_totalprice) over (order by o_orderkey rows between 3 preceding and unbounded following) as mx,
       min(o_totalprice) over (order by o_orderkey rows between unbounded preceding and 2 following) as mn,
       count(*) over (order by o_orderkey rows 3 preceding) as n
from orders where o_orderkey < 400;

-- ROWS frames that lie wholly before or after the row, empty at the partition's edges.
select o_orderkey, o_custkey,
       sum(o_totalprice) over (partition by o_custkey order by o_orderkey rows between 3 preceding and 1 preceding) as prev3,
       min(o_totalprice) over (partition by o_custkey order by o_orderkey rows between 1 following and 2 following) as next2,
       count(o_totalprice) over (partition by o_custkey order by o_orderkey rows between 1 following and 2 following) as c,
       avg(o_totalprice) over (partition by o_custkey order by o_orderkey rows between 2 following and unbounded following) as rest
from orders where o_custkey < 100;

-- DESC order: PRECEDING rows are the larger keys.
select o_orderkey, o_custkey,
       sum(o_totalprice) over (partition by o_custkey order by o_orderkey desc rows between 1 preceding and 1 following) as s,
       max(o_totalprice) over (partition by o_custkey order by o_orderkey desc rows between unbounded preceding and 1 preceding) as mx
from orders where o_custkey < 100;

-- NULL arguments: skipped; a frame of NULLs sums to NULL and counts 0.
select k, x,
       sum(x) over (order by k rows between 1 preceding and 1 following) as s,
       count(x) over (order by k rows between 1 preceding and 1 following) as c,
       count(*) over (order by k rows between 1 preceding and 1 following) as n,
       avg(x) over (order by k rows between 2 preceding and current row) as a,
       min(x) over (order by k rows between 2 preceding and current row) as mn,
       max(x) over (order by k rows between current row and 2 following) as mx
from (select o_orderkey as k, case when o_orderpriority in ('1-URGENT', '2-HIGH', '3-MEDIUM') then null else o_totalprice end as x
      from orders where o_orderkey < 300) t;

-- Doubles: sums that slide over large and small values.
select k, d,
       sum(d) over (order by k rows between 2 preceding and 2 following) as s,
       avg(d) over (order by k rows between 4 preceding and current row) as a
from (select o_orderkey as k, case when o_orderpriority = '1-URGENT' then cast(o_totalprice * 1000000000 as double)
                                   else cast(o_totalprice as double) end as d
      from orders where o_orderkey < 500) t;

-- RANGE offsets over an integer key with ties: the frame takes every row within the distance.
select o_orderkey, o_custkey,
       count(*) over (order by o_custkey range between 5 preceding and 5 following) as n,
       sum(o_totalprice) over (order by o_custkey range between 5 preceding and 5 following) as s,
       min(o_totalprice) over (order by o_custkey range between 3 preceding and current row) as mn,
       max(o_totalprice) over (order by o_custkey range between current row and 10 following) as mx,
       sum(o_totalprice) over (order by o_custkey range between 10 preceding and 1 preceding) as before_me,
       count(*) over (order by o_custkey range between 1 following and unbounded following) as after_me
from orders where o_custkey < 300;

-- RANGE offsets with PARTITION BY and DESC: PRECEDING keys are the larger ones.
select o_orderkey, o_orderstatus, o_custkey,
       sum(o_totalprice) over (partition by o_orderstatus order by o_custkey desc range between 4 preceding and 2 following) as s,
       count(*) over (partition by o_orderstatus order by o_custkey desc range between unbounded preceding and 3 preceding) as n
from orders where o_custkey < 300;

-- RANGE over a decimal key: the offset is in the key's units, not its scale's.
select o_orderkey, o_totalprice,
       count(*) over (order by o_totalprice range between 1000 preceding and 1000 following) as n,
       max(o_orderkey) over (order by o_totalprice range between 2500.50 preceding and current row) as mx
from orders where o_orderkey < 2000;

-- RANGE over a date key by an INTERVAL of days.
select o_orderkey, o_orderdate,
       count(*) over (order by o_orderdate range between interval '30' day preceding and current row) as n30,
       sum(o_totalprice) over (order by o_orderdate range between interval '7' day preceding and interval '7' day following) as s7
from orders where o_orderkey < 3000;

-- RANGE offsets over a NULL key: the NULL rows frame each other, no other row reaches them.
select k, o_totalprice,
       count(*) over (order by k range between 2 preceding and 2 following) as n,
       sum(o_totalprice) over (order by k range between 2 preceding and 2 following) as s,
       count(*) over (order by k nulls first range between 1 preceding and unbounded following) as nf,
       count(*) over (order by k desc range between unbounded preceding and 1 following) as d
from (select case when o_orderpriority = '5-LOW' then null else o_custkey end as k, o_totalprice
      from orders where o_custkey < 150) t;

-- error: RANGE clause cannot be used with compound ORDER BY clause
select o_orderkey, sum(o_totalprice) over (order by o_custkey, o_orderkey range between 1 preceding and current row) as s
from orders where o_orderkey < 10;

-- error: Data type of ORDER BY prohibits use of RANGE clause
select o_orderkey, sum(o_totalprice) over (order by o_comment range between 1 preceding and current row) as s
from orders where o_orderkey < 10;
