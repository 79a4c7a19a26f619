Bwj"
location../../../../etc/passwdj
offset0j
length16p