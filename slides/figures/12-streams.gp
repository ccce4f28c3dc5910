# 12-streams.gp: the demo's table as bars of time per call (gnuplot -e "csv='slides/data/12-streams.csv'").
# The title names the GPU the CSV was measured on; each bar says its speedup over serial.
if (!exists("csv")) csv = "slides/data/12-streams.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
size = system("sed -n 's/^# lab: 12-streams, //p' " . csv)
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,405 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set title sprintf("Copy in, process, copy out: %s on %s", size, gpu)
set ylabel "time per call (ms)"
set yrange [0:*]
# room above the tallest bar for its label; no tics on the top border, where they cut the labels
set offsets 0, 0, graph 0.15, 0
set xtics nomirror
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics
unset key
# red: serial (the default stream); orange: async (one stream); green: pipelined
plot csv using 0:2:(0.6):($0 == 0 ? 0xd62728 : $0 == 1 ? 0xff7f0e : 0x2ca02c):xtic(1) \
         with boxes lc rgb variable, \
     csv using 0:2:(sprintf("%.2f ms, %.2fx", $2, $5)) with labels offset 0,0.8 font ",17"
