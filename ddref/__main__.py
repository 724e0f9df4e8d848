from ddref.cli import main

main()
