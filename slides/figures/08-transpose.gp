# 08-transpose.gp: the demo's table as bars (gnuplot -e "csv='slides/data/08-transpose.csv'").
# The title names the GPU the CSV was measured on; the dashed line is cudaMemcpy.
if (!exists("csv")) csv = "slides/data/08-transpose.csv"
gpu = system("sed -n 's/^# gpu: //p' " . csv)
size = system("sed -n 's/^# lab: 08-transpose, //p' " . csv)
memcpy = real(system("sed -n 's/^# memcpy_gbps: \\([0-9.]*\\).*/\\1/p' " . csv))
# the size it is shown at on a 1280 x 720 slide (its h: in the deck), every text 17 px or more
set terminal svg size 1120,405 dynamic noenhanced font "Helvetica,18" background "white"
set datafile separator ","
set datafile columnheaders
set title sprintf("Transpose of %s on %s", size, gpu)
set ylabel "effective bandwidth (GB/s, read + write)"
set yrange [0:memcpy * 1.12]
set style fill solid 0.85 border -1
set boxwidth 0.6
set grid ytics
unset key
set arrow from graph 0, first memcpy to graph 1, first memcpy nohead dt 2 lw 2 lc rgb "#555555"
set label sprintf("cudaMemcpy %.0f GB/s (100%%)", memcpy) at graph 0.02, first memcpy * 1.04 textcolor rgb "#555555"
# grey: the copy to aim for; red: naive; orange: tiled; green: tiled+padded
plot csv using 0:3:(0.6):($0 == 0 ? 0x999999 : $0 == 1 ? 0xd62728 : $0 == 2 ? 0xff7f0e : 0x2ca02c):xtic(1) \
         with boxes lc rgb variable, \
     csv using 0:3:(sprintf("%.0f GB/s, %.0f%%", $3, $4)) with labels offset 0,0.8 font ",17"
