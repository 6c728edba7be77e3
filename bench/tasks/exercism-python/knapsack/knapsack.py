def maximum_value(maximum_weight, items):
    pass
