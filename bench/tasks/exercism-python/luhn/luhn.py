class Luhn:
    def __init__(self, card_num):
        pass

    def valid(self):
        pass
