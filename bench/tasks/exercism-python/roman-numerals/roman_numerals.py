def roman(number):
    pass

