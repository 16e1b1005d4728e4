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

-- INTERVAL n days, unquoted and plural (DuckDB's and Spark's spelling; TPC-DS texts write it): added to a
-- date constant, to and from a date column (DuckDB's answer a timestamp, cast back), and months.
select count(*) as n from orders where o_orderdate between cast('1995-01-01' as date) and (cast('1995-01-01' as date) + interval 30 days);
select o_orderkey, cast(o_orderdate - interval 14 days as date) as before,
       cast(o_orderdate + interval 1 day as date) as after from orders where o_orderkey < 40 order by o_orderkey;
select count(*) as n from lineitem where l_receiptdate > l_shipdate + interval 20 days;
select cast(cast('1995-01-31' as date) + interval 2 months as date) as later;
