-- Date parts and INTERVAL arithmetic on date columns.
select o_orderkey, extract(month from o_orderdate) as m, extract(day from o_orderdate) as d,
       extract(quarter from o_orderdate) as q, extract(dow from o_orderdate) as dow,
       extract(doy from o_orderdate) as doy, extract(week from o_orderdate) as w
from orders where o_orderkey < 100 order by o_orderkey;
-- DuckDB's date plus a month interval is a timestamp: the cast makes it a date again.
select o_orderkey, cast(o_orderdate + interval '1' month as date) as next_month,
       cast(o_orderdate - interval '2' year as date) as before,
       cast(o_orderdate + interval '10' day as date) as later from orders where o_orderkey < 100 order by o_orderkey;
select extract(year from o_orderdate) as y, extract(month from o_orderdate) as m, count(*) as n from orders
group by extract(year from o_orderdate), extract(month from o_orderdate) order by y, m;
select count(*) as n from lineitem where l_receiptdate > l_shipdate + interval '1' month;
select year(o_orderdate) as y, month(o_orderdate) as m from orders where o_orderkey = 1;
-- A whole number added to or taken from a date counts days, as in DuckDB and Postgres (TPC-DS Q72).
select count(*) as n from lineitem where l_receiptdate > l_shipdate + 5;
select o_orderkey, o_orderdate - 3 as before, o_orderdate + 30 as after from orders where o_orderkey < 10 order by 1;
