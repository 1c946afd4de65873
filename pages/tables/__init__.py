"""The table page: the 流水 sheet, recording, correcting and deleting hands, final results."""
