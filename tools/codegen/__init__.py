"""The generated firmware modules: gen_viper.py writes the viper and machine-code modules of firmware/
from the templates in viper_templates/ (and the evaluation's patterns); `gen_viper.py --check` tells
whether a generated module is out of date."""
