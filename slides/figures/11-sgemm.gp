# 11-sgemm.gp: the demo's table as bars (gnuplot -e "csv='slides/data/11-sgemm.csv'").
# Each kernel of the worklog as a share of cuBLAS FP32 in the same run, at the two sizes of the
# demo (the first seven rows: the first size; the next seven: the second). The title names the
# GPU the CSV was measured on; the dashed line is cuBLAS.
if (!exists("csv")) csv = "slides/data/11-sgemm.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
size1 = system("awk -F, '/^[0-9]/ {print $1; exit}' " . csv)
size2 = system("awk -F, '/^[0-9]/ {n++; if (n == 8) {print $1; exit}}' " . csv)
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,405 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set title sprintf("SGEMM, FP32, on %s: share of cuBLAS FP32 (m = n = k)", gpu)
set ylabel "% of cuBLAS FP32 (same run)"
set yrange [0:115]
set xrange [-0.6:6.6]
set style fill solid 0.85 border -1
set boxwidth 0.38
set grid ytics
set key top left
set xtics rotate by -20 font ",17" noenhanced
set bmargin 6
set arrow from graph 0, first 100 to graph 1, first 100 nohead dt 2 lw 2 lc rgb "#555555"
plot csv every ::0::6 using ($0 - 0.2):5:(0.38):xtic(2) with boxes lc rgb "#1f77b4" \
         title sprintf("%s^3", size1), \
     csv every ::7::13 using ($0 + 0.2):5:(0.38) with boxes lc rgb "#ff7f0e" \
         title sprintf("%s^3 (scalar path)", size2), \
     csv every ::0::6 using ($0 - 0.2):($5 + 3):(sprintf("%.1f", $5)) with labels font ",17" notitle, \
     csv every ::7::13 using ($0 + 0.2):($5 + 3):(sprintf("%.1f", $5)) with labels font ",17" notitle
