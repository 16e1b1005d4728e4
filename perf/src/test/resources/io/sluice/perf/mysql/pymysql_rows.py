# Runs the statement on stdin through PyMySQL against the Sluice MySQL server on 127.0.0.1:PORT and prints
# the column names, then each row with every cell tagged by the Python type PyMySQL gave it:
# N (None), I:int, D:decimal.Decimal, F:float (repr, exact), T:datetime.date (ISO), S:str (JSON).
import datetime
import decimal
import json
import sys

import pymysql

connection = pymysql.connect(host="127.0.0.1", port=int(sys.argv[1]), user="sluice", password="", database="sluice")
try:
    with connection.cursor() as cursor:
        cursor.execute(sys.stdin.read())
        print("\t".join(d[0] for d in cursor.description))
        for row in cursor.fetchall():
            cells = []
            for v in row:
                if v is None:
                    cells.append("N")
                elif isinstance(v, bool):
                    cells.append("I:" + str(int(v)))
                elif isinstance(v, int):
                    cells.append("I:" + str(v))
                elif isinstance(v, decimal.Decimal):
                    cells.append("D:" + str(v))
                elif isinstance(v, float):
                    cells.append("F:" + repr(v))
                elif isinstance(v, datetime.date):
                    cells.append("T:" + v.isoformat())
                elif isinstance(v, str):
                    cells.append("S:" + json.dumps(v))
                else:
                    cells.append("?:" + repr(v))
            print("\t".join(cells))
finally:
    connection.close()
